#!/usr/bin/env node
/* global process -- a Node script, linted by the shared config without Node globals for .mjs */
// Finds the Chromium the browser tests run in, or installs Debian's when it can, or stops with a
// message that says how to get one (scripts/ensure-debian-binary.mjs). Playwright's own download is
// never used: `playwright install` needs the network that these machines do not have.
//
// `findChromium()` is also imported by vite.config.ts, so the tests launch the browser this found.
import { fileURLToPath } from 'node:url';
import { ensureBinary, findBinary } from './ensure-debian-binary.mjs';

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

/**
 * The path of a Chromium binary: `CHROMIUM_PATH` when it is set (and executable), else the first
 * executable of {@link CHROMIUM_CANDIDATES}, else `undefined`.
 */
export function findChromium(environment = process.env) {
  return findBinary('CHROMIUM_PATH', CHROMIUM_CANDIDATES, environment);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  ensureBinary({
    label: 'Chromium',
    variable: 'CHROMIUM_PATH',
    candidates: CHROMIUM_CANDIDATES,
    aptPackage: 'chromium',
    took: ' (about a minute)',
    howToInstall: `The browser tests need Chromium, and none was found.
Install it, then run the tests again:
  Debian/Ubuntu:  sudo apt-get update && sudo apt-get install -y chromium
  elsewhere:      install Chromium or Chrome and set CHROMIUM_PATH=/path/to/the/binary`,
  });
}
