import { useQuery, type UseQueryReturnType } from '@tanstack/vue-query';
import { toValue, watch, type MaybeRefOrGetter } from 'vue';
import * as core from '../query/index.js';
import { useTaskwire } from './taskwire-plugin.js';

/** What {@link useTaskResult} returns: vue-query's query result (refs) over the TaskRecord. */
export type UseTaskResultResult<Result> = UseQueryReturnType<
  core.TaskRecord<Result>,
  core.TaskwireError
>;

/** The task's record, polled until it ends, one poll per task: `useTaskResult` of `taskwire`. */
export function useTaskResult<Name extends core.TaskName<core.RegisteredTasks>>(
  task: MaybeRefOrGetter<Name>,
  id: MaybeRefOrGetter<string | undefined>,
  options: MaybeRefOrGetter<core.UseTaskResultOptions> = {},
): UseTaskResultResult<core.TaskResult<core.RegisteredTasks, Name>> {
  const { client, journal } = useTaskwire();
  const read = () =>
    core.watchedRecordQuery(client, toValue(task), toValue(id), toValue(options), journal);
  const query = useQuery(read as never) as ReturnType<typeof useTaskResult<Name>>;
  // Each custom event once, by id, however often it is polled.
  const newEvents = core.createRecordEventTracker();
  const report = (event: core.EventReference) => toValue(options).onEvent?.(event);
  watch(query.data, (record) => record && newEvents(record).forEach(report), { immediate: true });
  return query;
}
