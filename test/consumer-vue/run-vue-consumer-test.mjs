#!/usr/bin/env node
/* global console -- a Node script */
// The Vue consumer test: `node test/consumer-vue/run-vue-consumer-test.mjs` after `npm run build`.
// In the style of test/consumer/run-consumer-test.mjs, and with its helpers: it packs the package,
// installs the tarball into a fresh Vite + Vue app written to a temporary folder (vue-app.mjs),
// offline (the tarball unpacked where npm would put it, the app's other packages linked from this
// repository's node_modules, so the tarball sees only what the app declares, as under pnpm), with
// no React anywhere; type-checks the app's TypeScript against the tarball's .d.ts files; builds it
// with Vite, serves it with `vite preview` (the reference service mounted by `taskwire/vite`) and
// in headless Chromium checks the price the page shows and streams a render to completion, with no
// console error, no failed request and one POST.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findChromium } from '../../scripts/ensure-chromium.mjs';
import {
  declaredVersions,
  linkPackages,
  packPackage,
  unpackTarball,
} from '../consumer/install-package.mjs';
import {
  askOptions,
  check,
  isPostTo,
  waitFor,
  WAIT_MS,
  watchPage,
} from '../consumer/page-checks.mjs';
import { quietViteBuild } from '../consumer/quiet-vite-build.mjs';
import { runNode } from '../consumer/run-process.mjs';
import { launchChromium, startTestRun } from '../consumer/test-run.mjs';
import {
  PAGE,
  RENDER_FRAMES,
  TARGET_LANGUAGE,
  TRANSLATE_TEXT,
  VUE_APP_PACKAGES,
  writeVueApp,
} from './vue-app.mjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The whole test's time limit; it takes about 15 s. */
const DEADLINE_MS = 180_000;
/** The peers a Vue app must not be made to install. */
const REACT_PEERS = ['react', 'react-dom', '@tanstack/react-query'];

const log = (line) => console.log(line);
const { cleanupSteps, timed, run } = startTestRun('Vue consumer test', DEADLINE_MS);

/** Installs the tarball into the app; checks that nothing of React is required or reachable. */
async function install(appRoot, tarball) {
  const files = writeVueApp(appRoot, {
    tarball: tarball.filename,
    versions: declaredVersions(repoRoot, [...VUE_APP_PACKAGES, 'typescript']),
  });
  const manifest = await unpackTarball(tarball.path, appRoot);
  const optional = manifest.peerDependenciesMeta ?? {};
  const required = Object.keys(manifest.peerDependencies ?? {}).filter(
    (name) => optional[name]?.optional !== true,
  );
  const missing = required.filter((name) => !VUE_APP_PACKAGES.includes(name));
  check(missing.length === 0, `The Vue app would have to install the peers ${missing.join(', ')}.`);
  const reactRequired = REACT_PEERS.filter((name) => required.includes(name));
  check(reactRequired.length === 0, `React peers are not optional: ${reactRequired.join(', ')}.`);
  const dependencies = Object.keys(manifest.dependencies ?? {});
  linkPackages(repoRoot, appRoot, [...VUE_APP_PACKAGES, 'typescript', ...dependencies]);
  const reactInstalled = REACT_PEERS.filter((name) =>
    existsSync(join(appRoot, 'node_modules', name)),
  );
  check(reactInstalled.length === 0, `React is installed: ${reactInstalled.join(', ')}.`);
  return { files, required, dependencies };
}

/** Builds the app with Vite (a warning fails) and checks that no React reached its bundle. */
async function buildApp(appRoot) {
  await quietViteBuild(appRoot);
  const assets = join(appRoot, 'dist', 'assets');
  const scripts = readdirSync(assets).filter((name) => name.endsWith('.js'));
  const withReact = scripts.filter((name) =>
    /react\.(production|development)|__SECRET_INTERNALS|useSyncExternalStore/.test(
      readFileSync(join(assets, name), 'utf8'),
    ),
  );
  check(withReact.length === 0, `React code in the Vue app's bundle: ${withReact.join(', ')}.`);
  return scripts;
}

/** Drives the served app in Chromium: the price, then a stream to its end. */
async function checkInBrowser(url, executablePath) {
  const browser = await launchChromium(executablePath);
  cleanupSteps.push(() => browser.close());
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT_MS);
  const problems = watchPage(page);
  const streamPosts = [];
  page.on('request', (request) => {
    if (isPostTo('render-video', 'stream', request)) streamPosts.push(request.url());
  });

  await page.goto(url);
  const quote = await askOptions(context, url, 'translate-text', {
    text: TRANSLATE_TEXT,
    targetLanguage: TARGET_LANGUAGE,
  });
  check(typeof quote.credits === 'number', `The service priced nothing: ${JSON.stringify(quote)}.`);
  const cost = page.getByRole('status', { name: PAGE.cost });
  const shown = await waitFor(
    'the price',
    () => cost.innerText(),
    (text) => text === `${quote.credits} credits`,
  );
  log(`✓ the page shows the service's price: ${shown}`);

  await page.getByRole('button', { name: PAGE.renderButton }).click();
  const status = page.getByRole('status', { name: PAGE.renderStatus });
  await waitFor(
    'the stream to complete',
    () => status.innerText(),
    (text) => text === 'completed',
  );
  const bar = page.getByRole('progressbar', { name: PAGE.renderProgress });
  check((await bar.getAttribute('value')) === '100', 'The render bar is not at 100.');
  const shownUrl = await page.getByRole('status', { name: PAGE.renderResult }).innerText();
  check(shownUrl.length > 0, 'The page shows no rendered video.');
  check(streamPosts.length === 1, `The page posted ${streamPosts.length} streams.`);
  log(`✓ a render of ${RENDER_FRAMES} frames streamed to completion with one POST: ${shownUrl}`);
  check(problems.length === 0, `The page reported problems:\n${problems.join('\n')}`);
  log('✓ no console error or warning, no failed request, no error answer');
}

async function main() {
  check(
    existsSync(join(repoRoot, 'dist', 'vue', 'index.js')),
    'There is no build in dist/: run npm run build first.',
  );
  const executablePath = findChromium();
  check(executablePath, 'No Chromium found: run node scripts/ensure-chromium.mjs.');
  const workRoot = mkdtempSync(join(tmpdir(), 'taskwire-vue-consumer-'));
  cleanupSteps.push(() => rmSync(workRoot, { recursive: true, force: true }));
  const appRoot = join(workRoot, 'app');

  const tarball = await timed('npm pack', () => packPackage(repoRoot, workRoot));
  const installed = await timed('write the app and install', () => install(appRoot, tarball));
  log(
    `✓ installed ${tarball.filename} into a fresh Vite + Vue app (${installed.files.join(', ')}); ` +
      `required peers ${installed.required.join(', ')}; no React installed`,
  );

  const checked = await timed('type check', async () =>
    JSON.parse(await runNode(join(repoRoot, 'test', 'consumer', 'type-check-app.mjs'), [appRoot])),
  );
  for (const { project, files, declarations } of checked.results)
    log(
      `✓ TypeScript finds no error in ${project}: ${files.join(', ')} and ${declarations} .d.ts files`,
    );

  const scripts = await timed('vite build', () => buildApp(appRoot));
  log(`✓ vite build, without a warning and with no React in ${scripts.join(', ')}`);

  const { preview } = await import('vite');
  const server = await timed('vite preview start', () =>
    preview({
      root: appRoot,
      configFile: join(appRoot, 'vite.config.ts'),
      preview: { port: 0, host: '127.0.0.1', strictPort: false },
    }),
  );
  cleanupSteps.push(() => server.close());
  const url = server.resolvedUrls?.local[0];
  check(url, 'vite preview reported no URL.');
  await timed('browser', () => checkInBrowser(url, executablePath));
  log('Vue consumer test passed');
}

run(main);
