/**
 * Size budgets, checked by `npm run check:package` (gzip, minified by esbuild). Version 0.2 raised
 * the client's: every request now carries a deadline, a size cap while reading, the refusal of
 * redirects, typed auth errors and a base URL check (about 0.9 kB at start); the stream path checks
 * events by hand where zod/mini would be slow (event-checks.ts); and the hooks gained client scopes
 * and a stream recovery that shares TanStack Query's poll, and the stream and submit hooks record
 * their tasks in a journal when the provider has one (the journal itself loads only where an app
 * imports it: none of it is in the minimal import). Reading error answers loads on first use. The peers and zod are
 * left out: an app has them anyway. "At start" leaves out what the client loads with `import()` on
 * first use (starting tasks, the stream path: src/client/load-on-first-use.ts), as an app's bundler
 * leaves it out of the first chunk; the figures with it loaded are printed too, so both costs are on
 * record. Later in 0.2 the activity feed (`client.subscribe`) added about 0.27 kB at start: the
 * request path hands raw values to a one-check `report`, and the builder of activities (about
 * 0.55 kB) loads on first use while someone listens; and `useTaskResult` passes the provider's
 * journal on (about 50 B), while the tab coordination itself is reached only through the journal.
 */
const ignore = ['react', 'react-dom', '@tanstack/react-query', 'zod'];

/** Marks every `import()` external, so the figure is what loads before the first stream. */
function atStart(config) {
  const lazyChunksLeftOut = {
    name: 'lazy-chunks-left-out',
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) =>
        args.kind === 'dynamic-import' ? { path: args.path, external: true } : undefined,
      );
    },
  };
  return { ...config, plugins: [...(config.plugins ?? []), lazyChunksLeftOut] };
}

function budget(name, names, limit, options = {}) {
  return {
    name,
    path: 'dist/index.js',
    import: `{ ${names} }`,
    ignore,
    gzip: true,
    limit,
    ...options,
  };
}

export default [
  budget(
    'minimal import at start: createTaskClient + useTaskResult',
    'createTaskClient, useTaskResult',
    '6.25 kB',
    {
      modifyEsbuildConfig: atStart,
    },
  ),
  budget(
    'minimal import, with all it loads on first use',
    'createTaskClient, useTaskResult',
    '11.25 kB',
  ),
  budget(
    'every hook + client at start',
    'createTaskClient, TaskwireProvider, useSubmitTask, useTaskResult, useTaskStream, useTaskOptions, useExecuteTask',
    '9.75 kB',
    { modifyEsbuildConfig: atStart },
  ),
  budget('TaskProgress', 'TaskProgress', '2.5 kB'),
  budget('CreditCostPreview', 'CreditCostPreview', '2.5 kB'),
  budget('UsageBreakdown', 'UsageBreakdown', '2.5 kB'),
  budget('TaskStatusBadge', 'TaskStatusBadge', '1 kB'),
  budget('TaskEventList', 'TaskEventList', '1 kB'),
  budget('NotificationActions', 'NotificationActions', '1.3 kB'),
  budget('TaskListView', 'TaskListView', '2 kB'),
  { name: 'styles.css', path: 'dist/styles.css', gzip: true, limit: '3 kB' },
];
