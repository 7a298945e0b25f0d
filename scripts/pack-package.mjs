#!/usr/bin/env node
/* global process, console -- a Node script */
// Packs the package as it is published: `node scripts/pack-package.mjs [destination]` (`npm run
// pack:package` builds first) writes taskwire-<version>.tgz into `destination` (default: the
// repository), to publish with `npm publish ./taskwire-<version>.tgz`. Its package.json leaves
// out `scripts`, `devDependencies` and `overrides`: they are this repository's (Storybook, the
// tests, the benchmarks, and one @tanstack/query-core for the two TanStack bindings of its dev
// install) and name files the package does not ship. The files are those of `files`, copied
// into a folder of their own and packed there with `npm pack`, which adds README.md itself.
// `npm publish` run in the repository is refused (prepublishOnly), so no tarball with them goes out.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The members of package.json that stay in the repository. */
export const UNPUBLISHED_FIELDS = ['scripts', 'devDependencies', 'overrides'];

/** package.json as published: the repository's without {@link UNPUBLISHED_FIELDS}. */
export function publishedManifest(manifest) {
  return Object.fromEntries(
    Object.entries(manifest).filter(([field]) => !UNPUBLISHED_FIELDS.includes(field)),
  );
}

/**
 * Packs the package at `repoRoot` into `destination` as it is published; returns what `npm pack`
 * reports of the tarball (`filename`, `size`, `entryCount`, `files`) and its `path`.
 */
export function packPublished(repoRoot, destination) {
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
  const stage = mkdtempSync(join(tmpdir(), 'taskwire-pack-'));
  try {
    for (const entry of [...manifest.files, 'README.md', 'LICENSE']) {
      if (/[*?[\]{}!]/.test(entry))
        throw new Error(`files holds a pattern (${entry}); list paths.`);
      const source = join(repoRoot, entry);
      if (existsSync(source)) cpSync(source, join(stage, entry), { recursive: true });
      else if (manifest.files.includes(entry)) throw new Error(`${entry} (in files) is missing.`);
    }
    writeFileSync(
      join(stage, 'package.json'),
      `${JSON.stringify(publishedManifest(manifest), null, 2)}\n`,
    );
    const output = execFileSync(
      'npm',
      ['pack', '--json', '--ignore-scripts', '--pack-destination', resolve(destination)],
      { cwd: stage, encoding: 'utf8' },
    );
    const [packed] = JSON.parse(output);
    if (!packed?.filename) throw new Error(`npm pack reported no tarball:\n${output}`);
    return { ...packed, path: join(resolve(destination), packed.filename) };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  if (process.argv[2] === '--refuse-publish') {
    console.error(
      'Publish the tarball of `npm run pack:package` instead (npm publish ./taskwire-<version>.tgz):\n' +
        'it leaves out scripts and devDependencies, which name files the package does not ship.',
    );
    process.exit(1);
  }
  if (!existsSync(join(repoRoot, 'dist', 'index.js'))) {
    console.error(
      'There is no build in dist/: run npm run build first (npm run pack:package does).',
    );
    process.exit(1);
  }
  const packed = packPublished(repoRoot, process.argv[2] ?? repoRoot);
  console.log(`${packed.path}: ${packed.entryCount} files, ${(packed.size / 1024).toFixed(1)} kB`);
}
