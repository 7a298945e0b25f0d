/**
 * The package build (`npm run build`): Vite in library mode, ESM only, one output module per source
 * module, so an app that imports `taskwire/client` loads the client's modules and nothing of the
 * reference service or its Node bridge. Declarations come from `tsc -p tsconfig.build.json`.
 * vite.config.ts stays the test configuration; this file is only for the build.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { bundleAsync } from 'lightningcss';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const sourceRoot = fileURLToPath(new URL('./src/', import.meta.url));

/** Each public entry of CONTRACT §2 (and the command-line entry), by its path in `dist`. */
const entries = {
  index: 'src/index.ts',
  'vue/index': 'src/vue/index.ts',
  'client/index': 'src/client/index.ts',
  'reference/index': 'src/reference/index.ts',
  'reference/node/index': 'src/reference/node/index.ts',
  'reference/node/cli': 'src/reference/node/cli.ts',
  'reference/vite/index': 'src/reference/vite/index.ts',
  'server/index': 'src/server/index.ts',
  'server/redis/index': 'src/server/redis/index.ts',
  'check/index': 'src/check/index.ts',
  'check/cli': 'src/check/cli.ts',
  'testing/index': 'src/testing/index.ts',
  'devtools/index': 'src/devtools/index.ts',
  'locales/de': 'src/locales/de.ts',
};

/**
 * What the package leaves to the app: its peers (the optional ones of `taskwire/testing`, Testing
 * Library and msw, and `redis` of `taskwire/server/redis`, included), its dependencies and Node's built-ins.
 */
const external = [
  /^react($|\/)/,
  /^react-dom($|\/)/,
  /^vue($|\/)/,
  /^@vue\//,
  /^@tanstack\//,
  /^zod($|\/)/,
  /^eventsource-parser($|\/)/,
  /^vite($|\/)/,
  /^@testing-library\//,
  /^msw($|\/)/,
  /^redis($|\/)/,
  /^node:/,
];

/**
 * Puts `'use client'` at the top of every output module that needs it: each source module that
 * starts with the directive (the hooks and the provider), and each one that imports React itself
 * (the components). Rolldown drops module-level directives when it rewrites a module, so they are
 * noted on the way in and written back on the way out. The entry barrels and the framework-free
 * modules (the client, the query-option factories) get none, so a React Server Component can still
 * import `createTaskClient` or `taskResultQueryOptions` from `taskwire` as plain server code.
 */
function clientDirective(): Plugin {
  const clientModules = new Set<string>();
  return {
    name: 'taskwire:use-client',
    apply: 'build',
    transform: {
      order: 'pre',
      handler(code, id) {
        if (/^\s*(['"])use client\1/.test(code)) clientModules.add(id);
        return null;
      },
    },
    generateBundle(_options, bundle) {
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        const markedInSource = output.moduleIds.some((id) => clientModules.has(id));
        // The module's own import statements, not `output.imports`, which also lists what the
        // module's imports import in turn.
        const importsReact = /^import\b[^;]*?["']react(?:\/[^"']*)?["'];?$/m.test(output.code);
        if (!markedInSource && !importsReact) continue;
        output.code = `'use client';\n${output.code.replace(/^(['"])use client\1;?\n?/, '')}`;
      }
    },
  };
}

/**
 * Emits `dist/styles.css`: `src/styles.css` with its `@import`s of each component's CSS inlined
 * (lightningcss bundles them in source order), so an app imports one file, `taskwire/styles.css`.
 */
function bundledStyles(): Plugin {
  return {
    name: 'taskwire:styles',
    apply: 'build',
    async generateBundle() {
      const { code } = await bundleAsync({
        filename: `${sourceRoot}styles.css`,
        resolver: { read: (path) => readFile(path, 'utf8') },
      });
      this.emitFile({ type: 'asset', fileName: 'styles.css', source: code });
    },
  };
}

/**
 * Keeps the devtools panel's stylesheet beside its lazily loaded module: `import
 * './devtools-panel.css'` stays in `dist/devtools/devtools-panel.js` and the file is copied next to
 * it, so an app's bundler loads it (as a `<link>`, fine under a strict CSP) with the panel's chunk,
 * in development only. Library mode would otherwise gather it into a stray CSS file nothing imports.
 */
function devtoolsStyles(): Plugin {
  const devtoolsRoot = `${sourceRoot}devtools/`;
  const stylesheets = new Set<string>();
  return {
    name: 'taskwire:devtools-styles',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      if (
        !importer?.startsWith(devtoolsRoot) ||
        !source.startsWith('./') ||
        !source.endsWith('.css')
      )
        return null;
      stylesheets.add(source.slice(2));
      return { id: source, external: true };
    },
    async generateBundle() {
      for (const name of stylesheets)
        this.emitFile({
          type: 'asset',
          fileName: `devtools/${name}`,
          source: await readFile(`${devtoolsRoot}${name}`, 'utf8'),
        });
    },
  };
}

export default defineConfig({
  plugins: [react(), clientDirective(), bundledStyles(), devtoolsStyles()],
  // Nothing from public/ belongs in the package.
  publicDir: false,
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    minify: false,
    sourcemap: false,
    copyPublicDir: false,
    lib: { entry: entries, formats: ['es'] },
    rolldownOptions: {
      external,
      // Rolldown inlines imported constants but keeps their module's import, left bare
      // (`import "./constants.js"`, say), which bundlers then warn about; the constants stay imported.
      optimization: { inlineConst: false },
      output: {
        preserveModules: true,
        preserveModulesRoot: 'src',
        entryFileNames: '[name].js',
      },
    },
  },
});
