/**
 * The mutation options of `useExecuteTask`, over `@tanstack/query-core`, for every binding: Execute
 * is never retried, since it has no idempotency key and a second call would run (and charge) the
 * task again (docs/protocol.md, "Execute").
 */
import type { MutationOptions } from '@tanstack/query-core';
import type { TaskwireError } from '../client/errors.js';
import type { TaskClient } from '../client/types.js';
import type { ExecuteRecord } from '../protocol/start-answers.js';
import type { TaskName, TaskParams, TaskResult, TaskSchemas } from '../protocol/task-schemas.js';
import type { ExecuteTaskVariables } from './hook-options.js';

/** The mutation options that run `task` with `client` and wait for its outcome, never retried. */
export function executeTaskMutationOptions<Tasks extends TaskSchemas, Name extends TaskName<Tasks>>(
  client: TaskClient<Tasks>,
  task: Name,
): MutationOptions<
  ExecuteRecord<TaskResult<Tasks, Name>>,
  TaskwireError,
  ExecuteTaskVariables<TaskParams<Tasks, Name>>
> {
  return { mutationFn: ({ params }) => client.execute(task, params), retry: false };
}
