// Installs the packed package into the consumer app without a registry: the tarball is unpacked
// into node_modules/taskwire as npm would unpack it, and every other package is a symlink to this
// repository's node_modules (installed by `npm ci`). The app's node_modules holds exactly what the
// app declares plus taskwire's own `dependencies`; what those need in turn (`@tanstack/query-core`
// under `@tanstack/react-query`, `scheduler` under `react-dom`) is not hoisted beside them but found
// from the links' real paths, which Vite and TypeScript follow, so each package exists once (one
// React). So the tarball sees only what a consumer declares and what it declares itself, as under
// pnpm: a module or type it takes from any other package fails the test instead of working by luck
// of npm's hoisting.
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runProcess } from './run-process.mjs';

/**
 * Packs the package at `repoRoot` into `destination` as it is published (scripts/pack-package.mjs:
 * the files of `files`, package.json without `scripts` and `devDependencies`), without lifecycle
 * scripts (the test checks dist/ as it was built); returns the tarball's path, name, size and
 * file count.
 */
export async function packPackage(repoRoot, destination) {
  const { packPublished } = await import(join(repoRoot, 'scripts', 'pack-package.mjs'));
  const packed = packPublished(repoRoot, destination);
  return {
    path: packed.path,
    filename: packed.filename,
    size: packed.size,
    entryCount: packed.entryCount,
  };
}

/** Unpacks `tarballPath` into `appRoot/node_modules/taskwire`; returns its package.json. */
export async function unpackTarball(tarballPath, appRoot) {
  const target = join(appRoot, 'node_modules', 'taskwire');
  mkdirSync(target, { recursive: true });
  await runProcess('tar', ['-xzf', tarballPath, '-C', target, '--strip-components=1']);
  return JSON.parse(readFileSync(join(target, 'package.json'), 'utf8'));
}

/**
 * Links each of `names` from `repoRoot/node_modules` into `appRoot/node_modules`, where npm would
 * hoist it. Throws for a package this repository has not installed.
 */
export function linkPackages(repoRoot, appRoot, names) {
  for (const name of names) {
    const source = join(repoRoot, 'node_modules', name);
    if (!existsSync(join(source, 'package.json')))
      throw new Error(`${name} is not in ${repoRoot}/node_modules: run npm ci first.`);
    const link = join(appRoot, 'node_modules', name);
    if (existsSync(link)) continue;
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(source, link, 'dir');
  }
}

/** The version ranges this repository declares for `names`, for the app's package.json. */
export function declaredVersions(repoRoot, names) {
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
  const all = { ...manifest.devDependencies, ...manifest.dependencies };
  return Object.fromEntries(names.map((name) => [name, all[name] ?? '*']));
}
