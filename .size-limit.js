import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Size budgets, checked by `npm run check:package` (gzip, minified by esbuild; CONTRIBUTING.md,
 * "Bundle size"). The peers and zod are left out: an app has them anyway. Each figure is what a
 * page loads first for those names: everything they import, whatever it calls later, except what
 * is loaded with `import()` (an app's bundler puts that in a chunk of its own, loaded when it is
 * needed). Two modules are: the hooks' resumable side (`src/state/resumable-side.ts`: the page's
 * one read of its tasks' logs and the short start), loaded once a service says it offers resumable
 * streams or a page reads a task's log it did not start, and budgeted below by what it adds; and
 * the devtools panel, from its own entry (`taskwire/devtools`), which none of these figures holds.
 * The client itself is one module graph: nothing of what its methods run is loaded later.
 *
 * The two figures that matter: `createTaskClient` + `useTaskResult` (an app that watches tasks),
 * and the quick-start page of the README (a client, a price, a stream, the two components that show
 * them, and the stylesheet), which is what a first app ships. The first was 10.75 kB with the
 * client as one graph on eventsource-parser, 12.39 kB while the stream budget lived in the client
 * (`client.stream` is part of every client), 10.89 kB since `useTaskStream` keeps it
 * (docs/protocol.md, "The stream budget"), and 12.04 kB with `client.events()` and the positions of
 * resumable streams (docs/protocol.md, "Resumable streams (0.4)").
 */
// @tanstack/query-core too: a peer that comes with @tanstack/react-query and @tanstack/vue-query,
// which the core of both bindings (src/query) imports directly since 0.4.
const root = dirname(fileURLToPath(import.meta.url));
const ignore = ['react', 'react-dom', '@tanstack/react-query', '@tanstack/query-core', 'zod'];
const ignoreVue = ['vue', '@tanstack/vue-query', '@tanstack/query-core', 'zod'];

/** Leaves what is loaded with `import()` out of a figure: a page loads it only when it needs it. */
const onDemandLeftOut = {
  name: 'taskwire:on-demand-left-out',
  setup(build) {
    build.onResolve({ filter: /.*/ }, ({ kind, path }) =>
      kind === 'dynamic-import' ? { path, external: true } : undefined,
    );
  },
};

/** A figure of what a page loads first (see onDemandLeftOut). */
const firstLoad = (config) => ({
  ...config,
  plugins: [...(config.plugins ?? []), onDemandLeftOut],
});

/**
 * Leaves out of a figure every module that `names` of dist/index.js load first: what a module
 * loaded on demand adds to a page that has them, as a chunk of ES module imports of theirs.
 */
const beyondFirstLoadOf = (names) => (config) => ({
  ...config,
  format: 'esm',
  plugins: [
    {
      name: 'taskwire:beyond-first-load',
      async setup(build) {
        const first = await build.esbuild.build({
          stdin: { contents: `export { ${names} } from './dist/index.js';`, resolveDir: root },
          bundle: true,
          write: false,
          metafile: true,
          external: ignore,
          plugins: [onDemandLeftOut],
        });
        const loaded = new Set(
          Object.keys(first.metafile.inputs).map((input) => resolve(root, input)),
        );
        build.onResolve({ filter: /^\./ }, ({ path, resolveDir }) => {
          const target = resolve(resolveDir, path);
          return loaded.has(target) ? { path: relative(root, target), external: true } : undefined;
        });
      },
    },
  ],
});

function budget(name, names, limit, options = {}) {
  return {
    name,
    path: 'dist/index.js',
    import: `{ ${names} }`,
    ignore,
    gzip: true,
    limit,
    modifyEsbuildConfig: firstLoad,
    ...options,
  };
}

const everyHook =
  'createTaskClient, TaskwireProvider, useSubmitTask, useTaskResult, useTaskStream, useTaskOptions, useExecuteTask';

export default [
  budget(
    'createTaskClient + useTaskResult, with everything they may load',
    'createTaskClient, useTaskResult',
    // 12.5 kB until the resumable side loaded on demand (12.06 kB measured: nothing of it was here).
    '12.25 kB',
  ),
  {
    name: 'the quick-start page: client, useTaskOptions, useTaskStream, CreditCostPreview, TaskProgress, styles.css',
    path: ['dist/index.js', 'dist/styles.css'],
    import: {
      'dist/index.js':
        '{ createTaskClient, TaskwireProvider, useTaskOptions, useTaskStream, streamDisplayStatus, CreditCostPreview, TaskProgress }',
      'dist/styles.css': '*',
    },
    ignore,
    gzip: true,
    modifyEsbuildConfig: firstLoad,
    // 22 kB until 0.4: the journal's rules (a refused start forgotten, keepParams), the quote's
    // staleness and useTaskStream's resumable streams add to it (26.25 kB measured with all of the
    // resumable side, 24.34 kB since its multiplexed read and short start load on demand, 24.52 kB
    // with the rules written once and a debounce of 0 that prices in the render).
    limit: '24.75 kB',
  },
  budget(
    'every hook + client + provider',
    everyHook,
    // 16.5 kB until 0.4's resumable streams in useTaskStream (20.31 kB measured with all of the
    // resumable side, 18.46 kB since its multiplexed read and short start load on demand).
    '18.75 kB',
  ),
  budget(
    "useTaskStream's resumable side, loaded on demand: what it adds to every hook",
    'resumableSideOf',
    // 3.06 kB measured: about 1 kB more than it weighed inside the hooks' bundle (20.31 - 18.46),
    // since a chunk is compressed alone and names what it imports.
    '3.25 kB',
    { path: 'dist/state/resumable-side.js', modifyEsbuildConfig: beyondFirstLoadOf(everyHook) },
  ),
  budget('TaskProgress', 'TaskProgress', '3.75 kB'),
  budget('CreditCostPreview', 'CreditCostPreview', '3.75 kB'),
  budget('UsageBreakdown', 'UsageBreakdown', '2.5 kB'),
  budget('TaskStatusBadge', 'TaskStatusBadge', '1 kB'),
  budget('TaskEventList', 'TaskEventList', '1 kB'),
  budget('NotificationActions', 'NotificationActions', '1.3 kB'),
  budget('TaskListView', 'TaskListView', '2.25 kB'),
  { name: 'styles.css', path: 'dist/styles.css', gzip: true, limit: '3 kB' },
  // taskwire/vue (vue, @tanstack/vue-query and query-core left out, like React's peers): its
  // minimal import, which holds no client (the app makes one and gives it to the plugin), and what
  // an app that watches tasks imports, the figure to set beside React's first one.
  budget('taskwire/vue: useTaskResult, with everything it may load', 'useTaskResult', '2.5 kB', {
    path: 'dist/vue/index.js',
    ignore: ignoreVue,
  }),
  budget(
    'taskwire/vue: createTaskClient + TaskwirePlugin + useTaskResult',
    'createTaskClient, TaskwirePlugin, useTaskResult',
    // 11.75 kB before the client's resumable side (client.events(), positions) came with 0.4's
    // merge: 12.72 kB measured, as React's client + useTaskResult grew the same way.
    '13 kB',
    { path: 'dist/vue/index.js', ignore: ignoreVue },
  ),
];
