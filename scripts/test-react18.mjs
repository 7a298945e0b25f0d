#!/usr/bin/env node
/* global process, console, performance -- a Node script, linted by the shared config without Node globals for .mjs */
// Runs the hook and component tests (the jsdom tests of test/react and test/components) a second
// time on React 18, since the package's peer range is `^18 || ^19` and the dev install is 19.
//
// React 18 cannot simply sit in devDependencies next to 19: Node resolves `react` by file location,
// so an aliased `react-dom-18` would still require the root `react` (19), and two Reacts in one tree
// break every hook. Instead react@18.3.1 and react-dom@18.3.1 (with their own scheduler) are
// installed into a directory of their own under node_modules/.cache, where react-dom finds its
// sibling react 18, and vitest.react18.config.ts points every `react` and `react-dom` import of our
// source, the tests, TanStack Query and Testing Library at that directory.
//
// The install is skipped when the directory already holds those exact versions; `npm ci` wipes
// node_modules, and with it this cache, so a fresh clone installs once. Extra arguments go to
// Vitest (a file filter, `--reporter=verbose`, ...).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// vitest.react18.config.ts reads React from the same directory.
const cacheDirectory = join(root, 'node_modules', '.cache', 'taskwire-react18');
const REACT_VERSION = '18.3.1';
const PACKAGES = { react: REACT_VERSION, 'react-dom': REACT_VERSION };

function installedVersion(directory, name) {
  try {
    const manifest = readFileSync(join(directory, 'node_modules', name, 'package.json'), 'utf8');
    return JSON.parse(manifest).version;
  } catch {
    return undefined;
  }
}

function isInstalled(directory) {
  return (
    Object.entries(PACKAGES).every(
      ([name, version]) => installedVersion(directory, name) === version,
    ) &&
    // react-dom 18 requires scheduler; a cut-short install could lack it.
    installedVersion(directory, 'scheduler') !== undefined
  );
}

function install() {
  // Installed next to the final directory, then moved into place, so an interrupted install never
  // leaves a half-filled cache that looks complete.
  const staging = `${cacheDirectory}.staging-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  // A manifest of its own, so npm never looks for (or edits) the project's package.json.
  writeFileSync(
    join(staging, 'package.json'),
    `${JSON.stringify({ name: 'taskwire-react18', private: true, dependencies: PACKAGES }, null, 2)}\n`,
  );
  // Under `npm run`, npm exports the project's prefix; --prefix must win over it.
  const environment = { ...process.env };
  for (const key of Object.keys(environment)) {
    if (/^npm_config_(local_|global_)?prefix$/i.test(key)) delete environment[key];
  }
  // The npm running this script when there is one, else the npm on the PATH.
  const npmCli = process.env.npm_execpath;
  const npm =
    npmCli && /npm-cli\.c?js$/.test(npmCli)
      ? { command: process.execPath, prefix: [npmCli] }
      : { command: 'npm', prefix: [] };
  const started = performance.now();
  const result = spawnSync(
    npm.command,
    [
      ...npm.prefix,
      'install',
      '--prefix',
      staging,
      '--no-package-lock',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      '--workspaces=false',
      '--loglevel=error',
    ],
    { cwd: staging, env: environment, stdio: 'inherit' },
  );
  if (result.status !== 0 || !isInstalled(staging)) {
    rmSync(staging, { recursive: true, force: true });
    console.error(
      `Installing react@${REACT_VERSION} and react-dom@${REACT_VERSION} into ${cacheDirectory} failed` +
        ` (npm exit code ${result.status ?? result.signal ?? result.error?.message}). The React 18` +
        ' run needs the npm registry once per fresh node_modules.',
    );
    process.exit(1);
  }
  rmSync(cacheDirectory, { recursive: true, force: true });
  try {
    renameSync(staging, cacheDirectory);
  } catch (error) {
    // A run started at the same time got there first; its install is as good as this one.
    rmSync(staging, { recursive: true, force: true });
    if (!isInstalled(cacheDirectory)) throw error;
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`React 18: installed react and react-dom ${REACT_VERSION} in ${seconds} s.`);
}

if (isInstalled(cacheDirectory)) {
  console.log(`React 18: react and react-dom ${REACT_VERSION} already in ${cacheDirectory}.`);
} else {
  console.log(
    `React 18: installing react and react-dom ${REACT_VERSION} into ${cacheDirectory}...`,
  );
  install();
}

const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
if (!existsSync(vitest)) {
  console.error('Vitest is not installed; run `npm ci` first.');
  process.exit(1);
}
const run = spawnSync(
  process.execPath,
  [vitest, 'run', '--config', 'vitest.react18.config.ts', ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit' },
);
process.exit(run.status ?? 1);
