import { useMutation, type UseMutationReturnType } from '@tanstack/vue-query';
import { toValue, type MaybeRefOrGetter } from 'vue';
import * as core from '../query/index.js';
import { useTaskwire } from './taskwire-plugin.js';

type Tasks = core.RegisteredTasks;

/** What {@link useExecuteTask} returns: vue-query's mutation result (refs) over the execute record. */
export type UseExecuteTaskResult<Params, Result> = UseMutationReturnType<
  core.ExecuteRecord<Result>,
  core.TaskwireError,
  core.ExecuteTaskVariables<Params>,
  unknown
>;

/** Runs a task and waits for its outcome, never retried: `useExecuteTask` of `taskwire`. */
export function useExecuteTask<Name extends core.TaskName<Tasks>>(
  task: MaybeRefOrGetter<Name>,
): UseExecuteTaskResult<core.TaskParams<Tasks, Name>, core.TaskResult<Tasks, Name>> {
  const { client } = useTaskwire();
  return useMutation(() => core.executeTaskMutationOptions(client, toValue(task)));
}
