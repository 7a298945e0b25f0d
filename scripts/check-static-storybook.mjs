#!/usr/bin/env node
/* global process, console, performance, setTimeout, fetch, URL -- a Node script, linted by the shared config without Node globals for .mjs */
// Opens every story and every docs page (the guides, the API reference) of the static Storybook in
// Chromium and fails when one logs a console error, throws, gets a 4xx or 5xx answer, has a request
// fail, or ends in error (a story's play function or its axe check, which `a11y.test: 'error'` turns
// into a failure; a docs page that never finishes rendering). The static build is what people get
// offline, and nothing else runs it: `vitest --project storybook` runs the stories on a dev server.
//
// Two things are not failures: a request the page aborted itself (a stale quote or poll cancelled,
// a stream the story cuts), and an HTTP error a story causes on purpose and names in its
// `parameters.expectedHttpErrors` (Execute past its limit answers 504 over real HTTP on a dev server).
//
//   node scripts/check-static-storybook.mjs               builds the API reference and storybook-static
//                                                         (as `npm run build-storybook`), then checks it
//   node scripts/check-static-storybook.mjs --no-build    checks the storybook-static already built
//   node scripts/check-static-storybook.mjs --url URL     checks a running Storybook (`npm start`)
//
// The browser is Debian's Chromium, found as the tests find it (scripts/ensure-chromium.mjs); the
// pages are served from 127.0.0.1 on a free port by a small static server, never from the network.
import { spawnSync } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright';
import { CHROMIUM_ARGS, findChromium } from './ensure-chromium.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const staticDirectory = join(root, 'storybook-static');

/** Stories checked at once: each waits on its own timers, so a few pages overlap well on 2 cores. */
const CONCURRENCY = 4;
/** Longest a story may take to finish (its play function included), or a docs page to render. */
const STORY_TIMEOUT_MS = 60_000;
/** How long a page stays open after its story finished, for errors that come just after. */
const SETTLE_MS = 250;
/** The same for a docs page: the stories it shows (live ones load the service) render after it. */
const DOCS_SETTLE_MS = 1500;

const MIME_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

function parseArguments(argv) {
  const options = { build: true, url: undefined };
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index];
    if (argument === '--no-build') options.build = false;
    else if (argument === '--url') options.url = argv[++index];
    else
      throw new Error(`Unknown argument ${argument}; see the comment at the top of this script.`);
  }
  if (options.url !== undefined) options.build = false;
  return options;
}

function buildStorybook() {
  const started = performance.now();
  // The API reference pages (api-reference/) must exist before Storybook indexes its docs.
  const apiDocs = spawnSync(process.execPath, [join(root, 'scripts', 'build-api-docs.mjs')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (apiDocs.status !== 0) {
    throw new Error(`build-api-docs.mjs exited with ${apiDocs.status ?? apiDocs.signal}.`);
  }
  const result = spawnSync(join(root, 'node_modules', '.bin', 'storybook'), ['build', '--quiet'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, STORYBOOK_DISABLE_TELEMETRY: '1' },
  });
  if (result.status !== 0) {
    console.error(result.stdout, result.stderr);
    throw new Error(`storybook build exited with ${result.status ?? result.signal}.`);
  }
  return performance.now() - started;
}

/** Serves `directory` on 127.0.0.1 at a free port; answers 404 for anything outside it. */
async function serveStatic(directory) {
  const server = createServer(async (request, response) => {
    try {
      const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
      let file = normalize(join(directory, path));
      if (file !== directory && !file.startsWith(directory + sep)) throw new Error('outside');
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      const type = MIME_TYPES[extname(file)] ?? 'application/octet-stream';
      response.writeHead(200, { 'content-type': type, 'content-length': body.length });
      response.end(request.method === 'HEAD' ? undefined : body);
    } catch {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('Not found');
    }
  });
  await new Promise((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  const address = server.address();
  return { server, url: `http://127.0.0.1:${address.port}` };
}

/**
 * The stories and the docs pages of the Storybook at `baseUrl`, as `{ id, type }`, the live stories
 * first: they wait on the service's timers (Execute past its 20 s limit is the longest), so
 * starting them early lets the quick ones fill the other pages meanwhile.
 */
async function entriesToCheck(baseUrl) {
  const response = await fetch(`${baseUrl}/index.json`);
  if (!response.ok) throw new Error(`${baseUrl}/index.json answered ${response.status}.`);
  const index = await response.json();
  const entries = Object.values(index.entries).filter(
    (entry) => entry.type === 'story' || entry.type === 'docs',
  );
  const isLive = (entry) => entry.type === 'story' && entry.importPath.includes('/live/');
  return [...entries.filter(isLive), ...entries.filter((entry) => !isLive(entry))].map(
    ({ id, type }) => ({ id, type }),
  );
}

/** `text` on one line, cut at 300 characters: a failed play function prints the whole DOM. */
function shortened(text) {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

/**
 * Runs before the page's scripts: catches Storybook's channel when the preview creates it, and
 * keeps the STORY_FINISHED event (emitted once the play function and the axe check have run), the
 * DOCS_RENDERED event of a docs page, and every error event before them. A static build sets `throwPlayFunctionExceptions: false`, so a play
 * function that fails still finishes with `success`, and only its own event tells.
 */
function watchStory() {
  const errorEvents = [
    'playFunctionThrewException',
    'storyThrewException',
    'storyErrored',
    'storyMissing',
    'unhandledErrorsWhilePlaying',
  ];
  globalThis.__taskwireStoryErrors = [];
  globalThis.__taskwireExpectedHttpErrors = [];
  let channel;
  Object.defineProperty(globalThis, '__STORYBOOK_ADDONS_CHANNEL__', {
    configurable: true,
    get: () => channel,
    set(value) {
      channel = value;
      // A docs page prepares each story it shows: the errors any of them expects are expected.
      value.on('storyPrepared', (event) => {
        globalThis.__taskwireExpectedHttpErrors.push(
          ...(event?.parameters?.expectedHttpErrors ?? []),
        );
      });
      value.on('storyFinished', (event) => {
        globalThis.__taskwireStoryFinished = event;
      });
      value.on('docsRendered', () => {
        globalThis.__taskwireStoryFinished = { status: 'success', docs: true };
      });
      for (const name of errorEvents) {
        value.on(name, (payload) => {
          const errors = Array.isArray(payload) ? payload : [payload];
          for (const error of errors) {
            globalThis.__taskwireStoryErrors.push(
              `${name}: ${error?.message ?? error?.title ?? ''}`,
            );
          }
        });
      }
    },
  });
}

/**
 * Whether `url` is the favicon a browser asks for by itself: iframe.html names none, so a static
 * host answers 404 whatever the stories do.
 */
function isBrowserFavicon(url) {
  return Boolean(url) && new URL(url).pathname === '/favicon.ico';
}

/** What went wrong while one story or docs page ran: an empty list when nothing did. */
async function checkEntry(context, baseUrl, { id, type }) {
  const problems = [];
  // HTTP errors are judged once the story has said which it expects (`storyPrepared`).
  const httpErrors = [];
  const page = await context.newPage();
  page.on('console', (message) => {
    const url = message.location().url;
    if (message.type() !== 'error' || isBrowserFavicon(url)) return;
    // Chromium logs every 4xx and 5xx answer; it is judged with the answer itself, below.
    const status = /^Failed to load resource: .* status of (\d+)/.exec(message.text())?.[1];
    if (status)
      httpErrors.push({ status: Number(status), text: `console error: ${message.text()}` });
    else problems.push(`console error: ${shortened(message.text())}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${shortened(error.message)}`));
  page.on('response', (response) => {
    if (response.status() < 400 || isBrowserFavicon(response.url())) return;
    const request = response.request();
    httpErrors.push({
      status: response.status(),
      text: `HTTP ${response.status()} for ${request.method()} ${response.url()}`,
    });
  });
  page.on('requestfailed', (request) => {
    const reason = request.failure()?.errorText;
    if (reason === 'net::ERR_ABORTED') return;
    problems.push(`request failed (${reason}): ${request.url()}`);
  });
  const started = performance.now();
  try {
    const viewMode = type === 'docs' ? 'docs' : 'story';
    await page.goto(`${baseUrl}/iframe.html?id=${encodeURIComponent(id)}&viewMode=${viewMode}`);
    const handle = await page.waitForFunction(() => globalThis.__taskwireStoryFinished, null, {
      timeout: STORY_TIMEOUT_MS,
      polling: 100,
    });
    const finished = await handle.jsonValue();
    if (finished.status !== 'success') {
      const reports = (finished.reporters ?? [])
        .filter((report) => report.status !== 'passed')
        .map((report) => {
          const violations = report.result?.violations?.map((violation) => violation.id) ?? [];
          return `${report.type}: ${report.status} ${violations.join(', ')}`.trim();
        });
      problems.push(`finished with status ${finished.status} ${reports.join('; ')}`.trim());
    }
    const settle = type === 'docs' ? DOCS_SETTLE_MS : SETTLE_MS;
    await new Promise((resolveSettle) => setTimeout(resolveSettle, settle));
    const { storyErrors, expected } = await page.evaluate(() => ({
      storyErrors: globalThis.__taskwireStoryErrors,
      expected: globalThis.__taskwireExpectedHttpErrors,
    }));
    problems.push(...storyErrors.map(shortened));
    for (const error of httpErrors) if (!expected.includes(error.status)) problems.push(error.text);
  } catch (error) {
    problems.push(`did not finish: ${shortened(error.message)}`);
    problems.push(...httpErrors.map((error) => error.text));
  }
  const seconds = (performance.now() - started) / 1000;
  // Closing aborts whatever the page still had under way; that is no failure of the story.
  page.removeAllListeners();
  await page.close();
  return { id, type, seconds, problems };
}

async function main() {
  const options = parseArguments(process.argv.slice(2));
  const started = performance.now();
  if (options.build) {
    const buildMs = buildStorybook();
    console.log(`Built storybook-static in ${(buildMs / 1000).toFixed(1)} s.`);
  }
  const served = options.url === undefined ? await serveStatic(staticDirectory) : undefined;
  const baseUrl = (options.url ?? served.url).replace(/\/+$/, '');

  const executablePath = findChromium();
  if (!executablePath) {
    throw new Error(
      'No Chromium found; run `node scripts/ensure-chromium.mjs` for how to get one.',
    );
  }
  const browser = await chromium.launch({ executablePath, args: [...CHROMIUM_ARGS] });
  const results = [];
  try {
    const context = await browser.newContext();
    await context.addInitScript(watchStory);
    const queue = await entriesToCheck(baseUrl);
    const total = queue.length;
    const worker = async () => {
      for (let entry = queue.shift(); entry !== undefined; entry = queue.shift()) {
        results.push(await checkEntry(context, baseUrl, entry));
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    if (results.length !== total) throw new Error(`Checked ${results.length} of ${total} entries.`);
  } finally {
    await browser.close();
    served?.server.close();
  }

  const failed = results.filter((result) => result.problems.length > 0);
  for (const result of failed) {
    console.error(`✗ ${result.id} (${result.seconds.toFixed(1)} s)`);
    for (const problem of result.problems) console.error(`    ${problem}`);
  }
  const slowest = results.reduce((slow, result) => (result.seconds > slow.seconds ? result : slow));
  const totalSeconds = ((performance.now() - started) / 1000).toFixed(1);
  const docsPages = results.filter((result) => result.type === 'docs').length;
  console.log(
    `${results.length - failed.length} passed, ${failed.length} failed, of ` +
      `${results.length - docsPages} stories and ${docsPages} docs pages ` +
      `(${options.url ?? 'storybook-static'}; ${totalSeconds} s in all, slowest ${slowest.id} ` +
      `${slowest.seconds.toFixed(1)} s).`,
  );
  if (failed.length > 0) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
