#!/usr/bin/env node
/* global console -- a Node script */
// The consumer test: `node test/consumer/run-consumer-test.mjs` after `npm run build`
// (`npm run test:consumer` does both). It packs the package with `npm pack`, installs the tarball
// into a fresh Vite React app written to a temporary folder (consumer-app.mjs), then, side by
// side, type-checks that app against the tarball's .d.ts files in a child process
// (type-check-app.mjs) and builds it, serves it with `vite preview` (the reference service mounted
// by `taskwire/vite`) and in headless Chromium prices a translation, submits and polls it, streams
// a render to completion, and checks both usage tables (check-in-browser.mjs).
//
// Offline by design (install-package.mjs): the tarball is unpacked where npm would put it, and the
// app's other packages are symlinks to this repository's node_modules, so no registry is asked.
// Whatever happens (a failed check, Ctrl-C, its own deadline) it closes the browser and the
// server, kills its child processes and removes its folder before it exits.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { findChromium } from '../../scripts/ensure-chromium.mjs';
import { checkInBrowser } from './check-in-browser.mjs';
import {
  checkPackageLinks,
  checkPublishedManifest,
  checkTestingWithoutMsw,
} from './check-package-files.mjs';
import { APP_PACKAGES, writeConsumerApp } from './consumer-app.mjs';
import { declaredVersions, linkPackages, packPackage, unpackTarball } from './install-package.mjs';
import { quietViteBuild } from './quiet-vite-build.mjs';
import { runNode } from './run-process.mjs';
import { describeError, startTestRun } from './test-run.mjs';

const testRoot = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(testRoot, '..', '..');
/** The whole test's time limit; it takes about 15 s. */
const DEADLINE_MS = 180_000;

const log = (line) => console.log(line);

const { cleanupSteps, timed, timings, run } = startTestRun('consumer test', DEADLINE_MS);

/** The newest modification time of any file under `folder`. */
function newestChange(folder) {
  let newest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile())
      newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/** Stops with a clear message when there is no build, and warns when src changed after it. */
function checkBuild() {
  const declarations = join(repoRoot, 'dist', 'index.d.ts');
  if (!existsSync(declarations) || !existsSync(join(repoRoot, 'dist', 'index.js')))
    throw new Error(
      'There is no build in dist/: run npm run build first (npm run test:consumer does).',
    );
  if (newestChange(join(repoRoot, 'src')) > statSync(declarations).mtimeMs)
    log('! src/ changed after the last build; the test checks dist/ as it is.');
}

/**
 * What marks the devtools panel's code: its class prefix (in its module and its stylesheet), its
 * label and its recorder module. The app renders `<TaskwireDevtools />`, and its production build
 * must hold none of them (docs/protocol.md, "The activity feed").
 */
const DEVTOOLS_MARKS = /taskwire.devtools|activity-recorder/i;

/** Fails when a devtools mark is missing from the package (so the check below means something). */
function checkDevtoolsMarks() {
  const panel = readFileSync(join(repoRoot, 'dist', 'devtools', 'devtools-panel.js'), 'utf8');
  if (!DEVTOOLS_MARKS.test(panel))
    throw new Error(
      'dist/devtools/devtools-panel.js holds no devtools mark; update DEVTOOLS_MARKS.',
    );
}

/** The files of the app's production build that hold devtools code. */
function devtoolsInBundle(appRoot) {
  const assets = join(appRoot, 'dist', 'assets');
  return readdirSync(assets).filter(
    (name) =>
      DEVTOOLS_MARKS.test(name) || DEVTOOLS_MARKS.test(readFileSync(join(assets, name), 'utf8')),
  );
}

/** The JavaScript the app shipped, in bytes and gzip bytes. */
function appBundleSize(appRoot) {
  const assets = join(appRoot, 'dist', 'assets');
  let bytes = 0;
  let gzipBytes = 0;
  for (const name of readdirSync(assets).filter((file) => file.endsWith('.js'))) {
    const content = readFileSync(join(assets, name));
    bytes += content.length;
    gzipBytes += gzipSync(content).length;
  }
  return { bytes, gzipBytes };
}

/** Type-checks the app (type-check-app.mjs) in a child process and says what it checked. */
async function typeCheckHalf(appRoot) {
  const checked = await timed('type check', async () =>
    JSON.parse(
      await runNode(join(testRoot, 'type-check-app.mjs'), [appRoot], { timeoutMs: 120_000 }),
    ),
  );
  for (const { project, files, declarations, expectedErrors } of checked.results) {
    log(
      `✓ TypeScript ${checked.version} (strict, moduleResolution bundler) finds no error in ${project}: ` +
        `${files.join(', ')} and taskwire's ${declarations} .d.ts files` +
        (expectedErrors > 0
          ? `; each of its ${expectedErrors} @ts-expect-error lines is an error`
          : ''),
    );
  }
}

/**
 * The tarball's own checks (check-package-files.mjs): its package.json, the links of its README and
 * guides, and `taskwire/testing` in a project without msw.
 */
async function packageHalf({ workRoot, appRoot, tarballPath, manifest }) {
  checkPublishedManifest(manifest);
  log('✓ the published package.json holds no scripts or devDependencies');
  const withoutMsw = await timed('taskwire/testing without msw', () =>
    checkTestingWithoutMsw({ repoRoot, workRoot, tarballPath, manifest }),
  );
  log(
    `✓ taskwire/testing loads in a project without msw (${withoutMsw.names.join(', ')}); ` +
      `taskwireHandlers says: ${withoutMsw.message}`,
  );
  const links = checkPackageLinks(join(appRoot, 'node_modules', 'taskwire'));
  log(
    `✓ ${links.links} relative links of README.md and ${links.pages - 1} guides resolve inside the package`,
  );
}

/** Builds the app, serves it with vite preview and runs the browser checks (check-in-browser.mjs). */
async function browserHalf(appRoot, executablePath) {
  await timed('vite build', () => quietViteBuild(appRoot));
  // Vite is imported late, so a missing build or browser is reported before it loads.
  const { preview } = await import('vite');
  const configFile = join(appRoot, 'vite.config.ts');
  const size = appBundleSize(appRoot);
  log(
    `✓ vite build, without a warning: ${(size.bytes / 1024).toFixed(1)} kB of JavaScript, ${(size.gzipBytes / 1024).toFixed(1)} kB gzip`,
  );
  const devtools = devtoolsInBundle(appRoot);
  if (devtools.length > 0)
    throw new Error(`The production build holds devtools code in ${devtools.join(', ')}.`);
  log('✓ the production build renders <TaskwireDevtools /> and holds none of its code');

  const server = await timed('vite preview start', () =>
    preview({
      root: appRoot,
      configFile,
      preview: { port: 0, host: '127.0.0.1', strictPort: false },
    }),
  );
  cleanupSteps.push(() => server.close());
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('vite preview reported no URL.');
  log(`✓ vite preview serves the app and the reference service (taskwire/vite) at ${url}`);

  let browser;
  cleanupSteps.push(() => browser?.close());
  const browserTimings = await checkInBrowser({
    url,
    executablePath,
    log,
    onBrowser: (launched) => (browser = launched),
  });
  for (const [label, ms] of Object.entries(browserTimings)) timings.push([`browser: ${label}`, ms]);
}

async function main() {
  checkBuild();
  checkDevtoolsMarks();
  const executablePath = findChromium();
  if (!executablePath) throw new Error('No Chromium found: run node scripts/ensure-chromium.mjs.');

  const workRoot = mkdtempSync(join(tmpdir(), 'taskwire-consumer-'));
  cleanupSteps.push(() => rmSync(workRoot, { recursive: true, force: true }));
  const appRoot = join(workRoot, 'app');

  const tarball = await timed('npm pack', () => packPackage(repoRoot, workRoot));
  log(
    `✓ npm pack: ${tarball.filename}, ${tarball.entryCount} files, ${(tarball.size / 1024).toFixed(1)} kB`,
  );

  const installed = await timed('write the app and install', async () => {
    const appFiles = writeConsumerApp(appRoot, {
      tarball: tarball.filename,
      versions: declaredVersions(repoRoot, [...APP_PACKAGES, 'typescript']),
    });
    const manifest = await unpackTarball(tarball.path, appRoot);
    // Optional peers (msw and Testing Library, for taskwire/testing) are left out on purpose: an
    // app that does not use them must build and run without them.
    const optional = manifest.peerDependenciesMeta ?? {};
    const missingPeers = Object.keys(manifest.peerDependencies ?? {}).filter(
      (name) => !APP_PACKAGES.includes(name) && optional[name]?.optional !== true,
    );
    if (missingPeers.length > 0)
      throw new Error(`The app does not install the peers ${missingPeers.join(', ')}.`);
    const dependencies = Object.keys(manifest.dependencies ?? {});
    linkPackages(repoRoot, appRoot, [...APP_PACKAGES, ...dependencies]);
    return { appFiles, manifest, dependencies };
  });
  log(
    `✓ installed into a fresh Vite React app (${installed.appFiles.join(', ')}) in ${appRoot}; ` +
      `peers ${Object.keys(installed.manifest.peerDependencies).join(', ')} and dependencies ` +
      `${installed.dependencies.join(', ')} linked from our node_modules`,
  );

  // Two independent halves run side by side: the type check in a child process (CPU-bound, on
  // the other core) and build → preview → browser here (mostly waiting on the demo tasks). Both
  // run to their end, so a failure of one does not hide the outcome of the other.
  const outcomes = await Promise.allSettled([
    typeCheckHalf(appRoot),
    browserHalf(appRoot, executablePath),
    packageHalf({ workRoot, appRoot, tarballPath: tarball.path, manifest: installed.manifest }),
  ]);
  const failures = outcomes.filter((outcome) => outcome.status === 'rejected');
  if (failures.length > 0) {
    for (const { reason } of failures.slice(1)) console.error(describeError(reason));
    throw failures[0].reason;
  }

  log('consumer test passed');
}

run(main);
