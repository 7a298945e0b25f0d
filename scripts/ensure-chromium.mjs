#!/usr/bin/env node
/* global process, console -- a Node script, linted by the shared config without Node globals for .mjs */
// Finds the Chromium the browser tests run in, or installs Debian's when it can (root with
// apt-get), or stops with a message that says how to get one. Playwright's own download is never
// used: `playwright install` needs the network that these machines do not have.
//
// `findChromium()` is also imported by vite.config.ts, so the tests launch the browser this found.
import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Where Chromium is looked for, in order, after `CHROMIUM_PATH`. */
export const CHROMIUM_CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

/** Launch flags: headless, and quiet on a closed network (without them Chromium keeps dialling out). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The path of a Chromium binary: `CHROMIUM_PATH` when it is set (and executable), else the first
 * executable of {@link CHROMIUM_CANDIDATES}, else `undefined`.
 */
export function findChromium(environment = process.env) {
  const override = environment.CHROMIUM_PATH;
  if (override) return isExecutable(override) ? override : undefined;
  return CHROMIUM_CANDIDATES.find(isExecutable);
}

const HOW_TO_INSTALL = `The browser tests need Chromium, and none was found.
Install it, then run the tests again:
  Debian/Ubuntu:  sudo apt-get update && sudo apt-get install -y chromium
  elsewhere:      install Chromium or Chrome and set CHROMIUM_PATH=/path/to/the/binary
(checked: CHROMIUM_PATH, ${CHROMIUM_CANDIDATES.join(', ')})`;

function canInstallWithApt() {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  return isRoot && spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
}

function main() {
  if (process.env.CHROMIUM_PATH && !findChromium()) {
    console.error(
      `CHROMIUM_PATH is set to ${process.env.CHROMIUM_PATH}, which is no executable file.`,
    );
    process.exit(1);
  }
  let path = findChromium();
  if (!path && canInstallWithApt()) {
    console.log("Chromium not found; installing Debian's chromium with apt-get (about a minute)…");
    try {
      execFileSync('apt-get', ['update'], { stdio: 'inherit' });
      execFileSync('apt-get', ['install', '-y', 'chromium'], {
        stdio: 'inherit',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      });
    } catch {
      console.error('apt-get could not install chromium.');
    }
    path = findChromium();
  }
  if (!path) {
    console.error(HOW_TO_INSTALL);
    process.exit(1);
  }
  console.log(`Chromium: ${path}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
