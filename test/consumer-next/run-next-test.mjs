#!/usr/bin/env node
/* global process, console, performance, setTimeout, clearTimeout, fetch, Response, ReadableStream, AbortSignal, URL -- a Node script */
// The Next.js consumer test: `npm run test:next` (a fresh `npm run build`, then this script). It
// packs the package with `npm pack`, makes an app with the current `create-next-app` (App Router
// template, its defaults, no saved preferences), adds taskwire's pages and route handlers to it
// (next-app.mjs), installs the tarball into it from the registry as a user would, builds it with
// `next build`, serves it with `next start`, and in headless Chromium checks (check-next-pages.mjs):
// a server-rendered page reloaded mid-stream hydrates without an error and resumes with one POST,
// against the reference service mounted in a route handler and through `createTaskProxy` in front
// of a reference server of its own, with no token in the browser; 8 streams at once while a price
// quote answers; 50 streams on one long-lived connection of the tab while a new price shows within
// 100 ms (docs/protocol.md, "Resumable streams (0.4)"); and under `next dev`, one reference service
// kept across an edit of its route (check-next-dev.mjs).
//
// It needs the npm registry (create-next-app and the app's packages), not the internet: telemetry
// is off and the template's Google fonts are dropped (next-app.mjs). It takes minutes, not seconds
// (3 to 4 on a busy 2-core machine: npm install and next build about 70 s each), so `npm test` does
// not run it. Whatever happens it stops its servers, the browser and its child
// processes and removes its folder (`--keep` leaves the folder, to look at the app).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { findChromium } from '../../scripts/ensure-chromium.mjs';
import { declaredVersions, packPackage } from '../consumer/install-package.mjs';
import { runProcess } from '../consumer/run-process.mjs';
import { describeError, launchChromium, startTestRun } from '../consumer/test-run.mjs';
import {
  checkManyStreams,
  checkNoAppTokenInBrowser,
  checkOneConnectionPerTab,
  checkReloadMidRun,
} from './check-next-pages.mjs';
import { checkServiceKeptAcrossEdit } from './check-next-dev.mjs';
import {
  addTaskwireToApp,
  MANY_STREAM_COUNT,
  MOUNTED_BASE,
  PROXIED_BASE,
  PROXY_ENV,
  ROUTES,
} from './next-app.mjs';

const testRoot = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(testRoot, '..', '..');
/** The whole test's time limit (create-next-app, npm install and next build included). */
const DEADLINE_MS = 900_000;
/** The create-next-app to run: the current one, unless `TASKWIRE_CREATE_NEXT_APP` names another. */
const CREATE_NEXT_APP = `create-next-app@${process.env.TASKWIRE_CREATE_NEXT_APP ?? 'latest'}`;
/** The app token the proxy adds on the server; the browser must never see it. */
const CLIENT_TOKEN = 'demo-client-token';
/** The user token the proxy's `authorize` finds from the app's session; the browser never sees it. */
const USER_TOKEN = 'demo-user-token';
const keep = process.argv.includes('--keep');

const log = (line) => console.log(line);
// Next.js sends anonymous telemetry unless told not to (these machines have no internet anyway);
// every child process inherits this.
process.env.NEXT_TELEMETRY_DISABLED = '1';

const { cleanupSteps, timed, timings, run } = startTestRun('Next.js consumer test', DEADLINE_MS);

/** A free loopback port, for `next start` (which wants one named). */
function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

/**
 * Starts `next <command>` (`start` or `dev`) on `port` in its own process group (so that it and
 * whatever it spawns end together) and resolves once `probePath` answers HTTP; its output is kept
 * for the checks and the failure message.
 */
async function startNext(appRoot, { command, port, environment, probePath = '/' }) {
  const child = spawn(
    process.execPath,
    [
      join(appRoot, 'node_modules', 'next', 'dist', 'bin', 'next'),
      command,
      '-p',
      String(port),
      '-H',
      '127.0.0.1',
    ],
    { cwd: appRoot, env: environment, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  const output = [];
  child.stdout.on('data', (chunk) => output.push(String(chunk)));
  child.stderr.on('data', (chunk) => output.push(String(chunk)));
  const exited = new Promise((resolveExit) => child.once('exit', resolveExit));
  cleanupSteps.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      process.kill(-child.pid, 'SIGTERM');
      const timer = setTimeout(() => process.kill(-child.pid, 'SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
  });
  const url = `http://127.0.0.1:${port}`;
  // `next dev` compiles the probed route on its first request, which takes a while here.
  const until = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next ${command} exited:\n${output.join('')}`);
    try {
      await fetch(url + probePath, { signal: AbortSignal.timeout(10_000) });
      return { url, output };
    } catch {
      if (Date.now() > until)
        throw new Error(`next ${command} did not answer:\n${output.join('')}`);
      await new Promise((resolveWait) => setTimeout(resolveWait, 200));
    }
  }
}

/**
 * The reference service on a `node:http` server of its own, from the packed package, with each
 * request it receives noted (method, path, and the headers the proxy must and must not send).
 */
async function startUpstream(appRoot) {
  const packageRoot = join(appRoot, 'node_modules', 'taskwire', 'dist');
  const { createReferenceService } = await import(
    pathToFileURL(join(packageRoot, 'reference', 'index.js')).href
  );
  const { startReferenceServer } = await import(
    pathToFileURL(join(packageRoot, 'reference', 'node', 'index.js')).href
  );
  // 50 renders of one user at once for the page of one connection per tab (docs/protocol.md, "Resumable streams (0.4)"); the
  // default lets a user run 32.
  const service = createReferenceService({ limits: { tasksPerUser: MANY_STREAM_COUNT + 14 } });
  const requests = [];
  let openStreams = 0;
  let mostOpenStreams = 0;
  const server = await startReferenceServer({
    service: {
      async fetch(request) {
        const path = new URL(request.url).pathname;
        requests.push({
          method: request.method,
          path,
          appToken: request.headers.get('x-app-authorization'),
          userToken: request.headers.get('authorization'),
          cookie: request.headers.get('cookie'),
        });
        const response = await service.fetch(request);
        const isStream = response.headers.get('content-type')?.startsWith('text/event-stream');
        if (!isStream || response.body === null) return response;
        mostOpenStreams = Math.max(mostOpenStreams, (openStreams += 1));
        const body = whileOpen(response.body, () => (openStreams -= 1));
        return new Response(body, { status: response.status, headers: response.headers });
      },
      close: () => service.close(),
    },
  });
  cleanupSteps.push(() => server.close());
  return {
    url: server.url,
    requests,
    mostOpenStreams: () => mostOpenStreams,
    resetMostOpenStreams: () => (mostOpenStreams = openStreams),
  };
}

/** `body` passed on as it is read; `onEnd` once it ends, fails or is cancelled. */
function whileOpen(body, onEnd) {
  const reader = body.getReader();
  let ended = false;
  const end = () => {
    if (!ended) onEnd();
    ended = true;
  };
  return new ReadableStream({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          end();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        end();
        controller.error(error);
      }
    },
    cancel(reason) {
      end();
      return reader.cancel(reason);
    },
  });
}

/** Runs one browser check; a failure is noted and the others still run. */
async function runCheck(results, label, work) {
  const started = performance.now();
  try {
    const summary = await work();
    results.push({ label, ok: true });
    log(`✓ ${label}: ${summary}`);
  } catch (error) {
    results.push({ label, ok: false });
    log(`✗ ${label}:\n  ${describeError(error).replaceAll('\n', '\n  ')}`);
  } finally {
    timings.push([`browser: ${label}`, performance.now() - started]);
  }
}

async function main() {
  if (!existsSync(join(repoRoot, 'dist', 'index.js')))
    throw new Error(
      'There is no build in dist/: run npm run build first (npm run test:next does).',
    );
  const executablePath = findChromium();
  if (!executablePath) throw new Error('No Chromium found: run node scripts/ensure-chromium.mjs.');

  const workRoot = mkdtempSync(join(tmpdir(), 'taskwire-next-'));
  if (keep) log(`(--keep: the app stays in ${workRoot})`);
  else cleanupSteps.push(() => rmSync(workRoot, { recursive: true, force: true }));
  const appRoot = join(workRoot, 'app');

  const tarball = await timed('npm pack', () => packPackage(repoRoot, workRoot));
  log(`✓ npm pack: ${tarball.filename}, ${(tarball.size / 1024).toFixed(1)} kB`);

  // --yes takes every default; a config folder of its own means no saved preference is used.
  process.env.XDG_CONFIG_HOME = join(workRoot, 'config');
  await timed('create-next-app', () =>
    runProcess(
      'npx',
      ['--yes', CREATE_NEXT_APP, 'app', '--yes', '--use-npm', '--disable-git', '--skip-install'],
      {
        cwd: workRoot,
        timeoutMs: 180_000,
      },
    ),
  );
  const template = JSON.parse(readFileSync(join(appRoot, 'package.json'), 'utf8'));
  log(
    `✓ ${CREATE_NEXT_APP} with its defaults: next ${template.dependencies.next}, react ` +
      `${template.dependencies.react}, ${Object.keys(template.devDependencies).join(', ')}`,
  );

  const added = addTaskwireToApp(appRoot);
  log(
    `✓ the app's layout drops only its Google fonts (${added.fonts.join(', ')}: next build ` +
      `downloads them, and this machine has no internet); added ${added.files.join(', ')}`,
  );
  const versions = declaredVersions(repoRoot, [
    '@tanstack/react-query',
    '@tanstack/query-core',
    'zod',
  ]);
  await timed('npm install', () =>
    runProcess(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        tarball.path,
        ...Object.entries(versions).map(([name, range]) => `${name}@${range}`),
      ],
      { cwd: appRoot, timeoutMs: 300_000 },
    ),
  );
  log(`✓ npm install of the template, the tarball and ${Object.keys(versions).join(', ')}`);

  const nextBin = join(appRoot, 'node_modules', 'next', 'dist', 'bin', 'next');
  const buildOutput = await timed('next build', () =>
    runProcess(process.execPath, [nextBin, 'build'], {
      cwd: appRoot,
      timeoutMs: 400_000,
    }),
  );
  const routeLines = buildOutput
    .split('\n')
    .filter((line) => /[┌├└]/.test(line))
    .map((line) => line.trim());
  log(`✓ next build:\n    ${routeLines.join('\n    ')}`);

  // The proxy's service: a reference server of its own (not Next's process), from the tarball.
  const upstream = await timed('reference server', () => startUpstream(appRoot));
  const server = await timed('next start', async () =>
    startNext(appRoot, {
      command: 'start',
      port: await freePort(),
      environment: {
        ...process.env,
        [PROXY_ENV.target]: upstream.url,
        [PROXY_ENV.clientToken]: CLIENT_TOKEN,
      },
    }),
  );
  log(`✓ next start serves the app at ${server.url}; the proxy's service is at ${upstream.url}`);

  const browser = await launchChromium(executablePath);
  cleanupSteps.push(() => browser.close());

  const results = [];
  await runCheck(results, 'reload mid-run, reference service mounted with routeHandlers', () =>
    checkReloadMidRun({ browser, url: server.url + ROUTES.mountedResume, base: MOUNTED_BASE }),
  );
  await runCheck(results, 'reload mid-run through createTaskProxy, no token in the browser', () =>
    checkNoAppTokenInBrowser({
      browser,
      url: server.url + ROUTES.proxiedResume,
      base: PROXIED_BASE,
      upstream,
      tokens: { app: CLIENT_TOKEN, user: USER_TOKEN },
    }),
  );
  await runCheck(results, '8 streams at once through the proxy, and a price quote', () =>
    checkManyStreams({
      browser,
      url: server.url + ROUTES.proxiedStreams,
      upstream,
    }),
  );
  await runCheck(results, 'two tabs with 8 streams each share one stream budget', () =>
    checkManyStreams({
      browser,
      url: server.url + ROUTES.proxiedStreams,
      upstream,
      tabs: 2,
    }),
  );
  await runCheck(
    results,
    `${MANY_STREAM_COUNT} streams through the proxy's log on one connection of the tab, and a new price`,
    () =>
      checkOneConnectionPerTab({
        browser,
        url: server.url + ROUTES.proxiedManyStreams,
        upstream,
      }),
  );
  await runCheck(
    results,
    'next dev keeps one reference service across an edit of its route',
    async () => {
      const dev = await startNext(appRoot, {
        command: 'dev',
        port: await freePort(),
        environment: process.env,
        probePath: `${MOUNTED_BASE}/workflows/render-video/options`,
      });
      return checkServiceKeptAcrossEdit({
        url: dev.url + MOUNTED_BASE,
        routeFile: join(
          appRoot,
          'app',
          ...MOUNTED_BASE.split('/').filter(Boolean),
          '[...path]',
          'route.ts',
        ),
        output: dev.output,
      });
    },
  );
  const nextOutput = server.output.join('').trim();
  if (nextOutput.includes('Error')) log(`next start said:\n${nextOutput}`);

  const failed = results.filter((result) => !result.ok);
  if (failed.length > 0)
    throw new Error(
      `${failed.length} of ${results.length} checks failed: ${failed.map((result) => result.label).join('; ')}`,
    );
  log('Next.js consumer test passed');
}

run(main);
