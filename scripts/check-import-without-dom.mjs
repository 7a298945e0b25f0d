#!/usr/bin/env node
/* global process, console -- a Node script, linted by the shared config without Node globals for .mjs */
// Imports the built browser entries (`dist/index.js`, `dist/vue/index.js`, `dist/client/index.js`,
// `dist/reference/index.js`) in plain Node, where there is no `window` or `document`, and fails
// when importing one throws or when
// a module of the package reads a DOM global (even behind a `typeof` guard): nothing of ours may
// touch the DOM at import time, so server rendering and Node scripts can load it. Reads by a
// dependency (TanStack Query's `typeof window` server check) are listed, not failed: they are
// theirs, and guarded. Run after `npm run build`.
import { resolve, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const distRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const ENTRIES = ['index.js', 'vue/index.js', 'client/index.js', 'reference/index.js'];
const DOM_GLOBALS = [
  'window',
  'document',
  'navigator',
  'location',
  'localStorage',
  'sessionStorage',
];

// Node 21+ has a `navigator` of its own; only globals that are absent are watched.
const watched = DOM_GLOBALS.filter((name) => !(name in globalThis));
if (!watched.includes('window') || !watched.includes('document')) {
  console.error('This check must run in plain Node, without window or document.');
  process.exit(1);
}

// Each watched global becomes a getter that notes the read and answers undefined, as an absent
// global would to `typeof`; an unguarded `window.x` still throws a TypeError, which fails the import.
const ownReads = [];
const dependencyReads = new Set();
let importing = '';
for (const name of watched) {
  Object.defineProperty(globalThis, name, {
    configurable: true,
    get() {
      // Frame 0 is the message, 1 this getter, 2 the code that read the global.
      const reader = new Error().stack?.split('\n')[2]?.trim() ?? 'unknown';
      if (reader.includes(pathToFileURL(distRoot).href)) {
        ownReads.push(`dist/${importing}: '${name}' read ${reader}`);
      } else {
        dependencyReads.add(`'${name}' read ${reader.replace(/^.*node_modules\//, 'at ')}`);
      }
      return undefined;
    },
  });
}

let failed = false;
for (const entry of ENTRIES) {
  importing = entry;
  try {
    const module = await import(pathToFileURL(resolve(distRoot, entry)).href);
    console.log(`dist/${entry}: imported without a DOM (${Object.keys(module).length} exports)`);
  } catch (error) {
    failed = true;
    console.error(`dist/${entry}: importing it threw without a DOM:`, error);
  }
}
for (const name of watched) delete globalThis[name];

for (const read of dependencyReads) console.log(`(a dependency, guarded) ${read}`);
if (ownReads.length > 0) {
  failed = true;
  console.error(`The package read DOM globals at import time:\n${ownReads.join('\n')}`);
}
if (failed) process.exitCode = 1;
