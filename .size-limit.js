/**
 * Size budgets, checked by `npm run check:package` (gzip, minified by esbuild; CONTRIBUTING.md,
 * "Bundle size"). The peers and zod are left out: an app has them anyway. The client is one module
 * graph with nothing loaded on first use, so each figure is the full cost of what it imports: what
 * an app's bundle holds, whatever it calls later. Only the devtools panel loads on demand, from its
 * own entry (`taskwire/devtools`), and none of these figures holds it.
 *
 * The two figures that matter: `createTaskClient` + `useTaskResult` (an app that watches tasks),
 * and the quick-start page of the README (a client, a price, a stream, the two components that show
 * them, and the stylesheet), which is what a first app ships. The first was 10.75 kB with the
 * client as one graph on eventsource-parser, 12.39 kB while the stream budget lived in the client
 * (`client.stream` is part of every client), 10.89 kB since `useTaskStream` keeps it
 * (docs/protocol.md, "The stream budget"), and 12.04 kB with `client.events()` and the positions of
 * resumable streams (docs/protocol.md, "Resumable streams (0.4)"); the multiplexed read and the
 * short start stay out of it until a hook uses them.
 */
// @tanstack/query-core too: a peer that comes with @tanstack/react-query and @tanstack/vue-query,
// which the core of both bindings (src/query) imports directly since 0.4.
const ignore = ['react', 'react-dom', '@tanstack/react-query', '@tanstack/query-core', 'zod'];
const ignoreVue = ['vue', '@tanstack/vue-query', '@tanstack/query-core', 'zod'];

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
    'createTaskClient + useTaskResult, with everything they may load',
    'createTaskClient, useTaskResult',
    '12.5 kB',
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
    // 22 kB until 0.4: the journal's rules (a refused start forgotten, keepParams), the quote's
    // staleness and useTaskStream's resumable streams (the page's one read, the log read, the short
    // start: about 4 kB, 26.13 kB measured) add to it. To win back: load the resumable side only
    // once a service offers it.
    limit: '26.5 kB',
  },
  budget(
    'every hook + client + provider',
    'createTaskClient, TaskwireProvider, useSubmitTask, useTaskResult, useTaskStream, useTaskOptions, useExecuteTask',
    // 16.5 kB until 0.4's resumable streams in useTaskStream (20.04 kB measured).
    '20.5 kB',
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
    // merge: 12.7 kB measured, as React's client + useTaskResult grew the same way.
    '13 kB',
    { path: 'dist/vue/index.js', ignore: ignoreVue },
  ),
];
