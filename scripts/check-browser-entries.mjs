#!/usr/bin/env node
/* global process, console -- a Node script, linted by the shared config without Node globals for .mjs */
// Walks the built import graph (static and dynamic imports) from the entries a browser app loads,
// `taskwire`, `taskwire/vue`, `taskwire/client` and `taskwire/reference`, and fails when any module reachable from
// them imports a Node built-in, with or without the `node:` prefix. The bare imports the graph leaves
// to the app (react, zod, …) are printed, so a new one shows up in review.
//
// Run after `npm run build`. The imports are read by TypeScript's own pre-processor, which sees
// `import`, `export … from` and `import()` and skips comments and strings.
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const distRoot = resolve(packageRoot, 'dist');

/** The browser entries, by their `exports` key, and their built file. */
const BROWSER_ENTRIES = {
  taskwire: 'index.js',
  'taskwire/vue': 'vue/index.js',
  'taskwire/client': 'client/index.js',
  'taskwire/reference': 'reference/index.js',
  'taskwire/server': 'server/index.js', // Web-standard only: edge runtimes have no Node built-ins
};

const nodeBuiltins = new Set(builtinModules.filter((name) => !name.startsWith('_')));

/** Whether an import specifier names a Node built-in (`node:fs`, `fs`, `fs/promises`). */
export function isNodeBuiltin(specifier) {
  if (specifier.startsWith('node:')) return true;
  return nodeBuiltins.has(specifier) || nodeBuiltins.has(specifier.split('/')[0]);
}

/** The import specifiers of one module's source. */
function importsOf(source) {
  return ts.preProcessFile(source, true, true).importedFiles.map((file) => file.fileName);
}

/**
 * Walks the graph from one built file and returns `{ modules, externals, violations }`: every
 * package module reached, every bare specifier left to the app, and every Node built-in import
 * with the module that imports it.
 */
export function walkImportGraph(entryFile) {
  const modules = new Set();
  const externals = new Set();
  const violations = [];
  const pending = [entryFile];
  while (pending.length > 0) {
    const file = pending.pop();
    if (modules.has(file)) continue;
    modules.add(file);
    for (const specifier of importsOf(readFileSync(file, 'utf8'))) {
      if (specifier.startsWith('.') || specifier.startsWith('/')) {
        pending.push(resolve(dirname(file), specifier));
      } else if (isNodeBuiltin(specifier)) {
        violations.push({ module: relative(packageRoot, file), specifier });
      } else {
        externals.add(specifier);
      }
    }
  }
  return { modules, externals, violations };
}

function main() {
  let failed = false;
  for (const [entry, file] of Object.entries(BROWSER_ENTRIES)) {
    const entryFile = resolve(distRoot, file);
    let graph;
    try {
      graph = walkImportGraph(entryFile);
    } catch (error) {
      console.error(
        `${entry}: cannot read ${relative(packageRoot, entryFile)} (run npm run build first).`,
      );
      console.error(String(error));
      process.exitCode = 1;
      return;
    }
    const externals = [...graph.externals].sort().join(', ') || 'none';
    if (graph.violations.length === 0) {
      console.log(
        `${entry}: ${graph.modules.size} modules, no Node built-in; external: ${externals}`,
      );
      continue;
    }
    failed = true;
    for (const { module, specifier } of graph.violations) {
      console.error(`${entry}: ${module} imports the Node built-in '${specifier}'.`);
    }
  }
  if (failed) process.exitCode = 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
