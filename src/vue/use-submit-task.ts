import { useMutation, type UseMutationReturnType } from '@tanstack/vue-query';
import { computed, onMounted, toValue, watch, type MaybeRefOrGetter } from 'vue';
import * as core from '../query/index.js';
import { useTaskwire } from './taskwire-plugin.js';

type Tasks = core.RegisteredTasks;

/** What {@link useSubmitTask} returns: vue-query's mutation result (refs); `data` is `{ id, status }`. */
export type UseSubmitTaskResult<Params> = UseMutationReturnType<
  core.SubmitAnswer,
  core.TaskwireError,
  core.SubmitTaskVariables<Params>,
  unknown
>;

/** Submits each intent once, resent after a reload once mounted: `useSubmitTask` of `taskwire`. */
export function useSubmitTask<Name extends core.TaskName<Tasks>>(
  task: MaybeRefOrGetter<Name>,
  options: MaybeRefOrGetter<core.UseSubmitTaskOptions> = {},
): UseSubmitTaskResult<core.TaskParams<Tasks, Name>> {
  const { client, session } = useTaskwire();
  const coalescer = core.createSubmitCoalescer();
  const writeAhead = computed(() =>
    core.submitWriteAheadOf(session, toValue(options).resumeKey, toValue(task), client),
  );
  const mutation = useMutation(() => {
    const config = { coalescer, writeAhead: writeAhead.value, retry: toValue(options).retry };
    return core.submitTaskMutationOptions(client, toValue(task), config);
  });
  const cutByReload = () => core.submitCutByReload<core.TaskParams<Tasks, Name>>(writeAhead.value);
  onMounted(() => watch(cutByReload, (cut) => cut && mutation.mutate(cut), { immediate: true }));
  return mutation;
}
