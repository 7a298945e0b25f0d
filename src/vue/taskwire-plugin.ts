import { useQueryClient } from '@tanstack/vue-query';
import { inject, type InjectionKey, type Plugin } from 'vue';
import * as core from '../query/index.js';

/** Options of {@link TaskwirePlugin}. */
export interface TaskwirePluginOptions {
  /** The client of every composable of the app, from `createTaskClient`. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any task map; `Register` types the composables
  client: core.TaskClient<any>;
  /** Where tasks are kept across reloads, per user (the client's `scope`). Defaults to none. */
  journal?: core.TaskJournal | undefined;
}

type Provided = { client: core.TaskClient<core.RegisteredTasks>; session?: core.JournalSession };
const provided: InjectionKey<Provided> = Symbol('taskwire');

/**
 * Gives the composables their client and journal, installed after VueQueryPlugin. Throws
 * `SCOPE_REQUIRED` for a journal with a client of no explicit `scope` (users would share tasks).
 */
export const TaskwirePlugin: Plugin<[TaskwirePluginOptions]> = {
  install(app, { client, journal }) {
    const session = core.scopedJournalSession(journal, client, 'TaskwirePlugin');
    // Entry statuses follow the records of the app's QueryClient, for the app's life.
    const queryCache = () => app.runWithContext(useQueryClient).getQueryCache();
    if (session) app.onUnmount(core.followRecordStatuses(queryCache(), session));
    app.provide(provided, { client, session });
  },
};

/** The plugin's client and journal session, and VueQueryPlugin's QueryClient. */
export function useTaskwire() {
  const context = inject(provided);
  if (!context) throw new Error('taskwire/vue: app.use(TaskwirePlugin, { client }) first.');
  return { ...context, journal: context.session?.journal, queryClient: useQueryClient() };
}
