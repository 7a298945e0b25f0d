'use client';
import { useMutation, type UseMutationResult } from '@tanstack/react-query';
import type { TaskwireError } from '../client/errors.js';
import type { ExecuteRecord } from '../protocol/start-answers.js';
import type { TaskName, TaskParams, TaskResult } from '../protocol/task-schemas.js';
import { executeTaskMutationOptions } from '../query/execute-task-mutation.js';
import type { ExecuteTaskVariables } from '../query/hook-options.js';
import type { RegisteredTasks } from '../query/register.js';
import { useTaskClient } from './taskwire-provider.js';

export type { ExecuteTaskVariables } from '../query/hook-options.js';

/** What {@link useExecuteTask} returns: TanStack Query's mutation result; `data` is `{ id, status, result, usage? }`. */
export type UseExecuteTaskResult<Params, Result> = UseMutationResult<
  ExecuteRecord<Result>,
  TaskwireError,
  ExecuteTaskVariables<Params>
>;

/**
 * Runs a task and waits for its outcome (tasks of up to 20 s). Past the limit the error has code
 * `timeout` and the task's `taskId`, so the caller can switch to `useTaskResult`. Never retried:
 * Execute has no idempotency key, and a second call would run (and charge) the task again.
 */
export function useExecuteTask<Name extends TaskName<RegisteredTasks>>(
  task: Name,
): UseExecuteTaskResult<TaskParams<RegisteredTasks, Name>, TaskResult<RegisteredTasks, Name>> {
  return useMutation(executeTaskMutationOptions(useTaskClient(), task));
}
