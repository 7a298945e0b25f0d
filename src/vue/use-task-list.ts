import { useQueries } from '@tanstack/vue-query';
import * as vue from 'vue';
import type { MaybeRefOrGetter, Ref } from 'vue';
import * as core from '../query/index.js';
import { useTaskwire } from './taskwire-plugin.js';

/** What {@link useTaskList} returns: a ref of the journal's tasks and unknown starts, newest first. */
export type UseTaskListResult = Readonly<Ref<core.TaskListItem[]>>;

/** The journal's tasks of the client's scope with their records: `useTaskList` of `taskwire`. */
export function useTaskList(
  options: MaybeRefOrGetter<core.UseTaskListOptions> = {},
): UseTaskListResult {
  const { client, session, journal } = useTaskwire();
  const listed = () => vue.toValue(options);
  const kept = vue.shallowRef(core.EMPTY_JOURNAL);
  // Storage is untrusted: kept params reach the page only if they pass the task's schema.
  const read = () => (kept.value = core.withCheckedParams(session!.getSnapshot(), client.tasks));
  let unsubscribe: (() => void) | undefined;
  vue.onMounted(() => session && (unsubscribe = session.subscribe(read)) && read());
  vue.onScopeDispose(() => unsubscribe?.());
  const shown = vue.computed(() => core.taskListEntries(kept.value.entries, listed()));
  const queries = () => core.taskListQueries(client, shown.value, listed(), journal);
  const records = useQueries({ queries: queries as never });
  const items = () => core.taskListItems(shown.value, records.value, kept.value, listed());
  return vue.computed(items);
}
