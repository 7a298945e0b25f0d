// How the consumer tests write their apps (the Vite React app here, the Vue app in ../consumer-vue,
// the Next.js app in ../consumer-next): files into the app's folder, package.json and tsconfig
// files as JSON. What each app puts in them stays in its own module, beside its other files.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Writes `files` (a path under `appRoot` to its text) into `appRoot`; returns their paths. */
export function writeAppFiles(appRoot, files) {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(appRoot, path)), { recursive: true });
    writeFileSync(join(appRoot, path), text);
  }
  return Object.keys(files);
}

/** `value` as the text of a JSON file: indented by two spaces, with a final newline. */
export function jsonText(value) {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/**
 * The package.json of an app that installs taskwire from `tarball` (beside the app's folder) and
 * the packages named in `dependencies` and `devDependencies`, at their ranges in `versions`.
 */
export function appPackageJson({
  name,
  scripts,
  tarball,
  dependencies,
  devDependencies,
  versions,
}) {
  const rangesOf = (names) => Object.fromEntries(names.map((each) => [each, versions[each]]));
  return jsonText({
    name,
    private: true,
    type: 'module',
    scripts,
    dependencies: { taskwire: `file:../${tarball}`, ...rangesOf(dependencies) },
    devDependencies: rangesOf(devDependencies),
  });
}

/** A tsconfig file: `compilerOptions` for the files `include` matches. */
export function tsconfigJson(compilerOptions, include) {
  return jsonText({ compilerOptions, include });
}

/**
 * The compiler options both Vite apps give their own code (tsconfig.app.json, as Vite's templates
 * split the config); each app adds its own.
 */
export const VITE_APP_OPTIONS = {
  target: 'ES2022',
  lib: ['ES2022', 'DOM', 'DOM.Iterable'],
  module: 'ESNext',
  types: ['vite/client'],
  skipLibCheck: true,
  moduleResolution: 'bundler',
  allowImportingTsExtensions: true,
  verbatimModuleSyntax: true,
  moduleDetection: 'force',
  noEmit: true,
  strict: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  noFallthroughCasesInSwitch: true,
};

/** The compiler options both Vite apps give their vite.config.ts (tsconfig.node.json). */
export const VITE_NODE_OPTIONS = {
  target: 'ES2023',
  lib: ['ES2023'],
  module: 'ESNext',
  types: ['node'],
  skipLibCheck: true,
  moduleResolution: 'bundler',
  verbatimModuleSyntax: true,
  noEmit: true,
  strict: true,
};
