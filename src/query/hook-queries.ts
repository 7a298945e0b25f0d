/**
 * The queries of `useTaskResult` and `useTaskOptions`, for every binding: the factories of
 * query-options.ts with what each hook adds (idle without an id or params, the previous quote kept
 * while the next loads), from the hook's plain arguments; a binding only makes them reactive.
 */
import { keepPreviousData } from '@tanstack/query-core';
import type { TaskClient } from '../client/types.js';
import type { TaskRecord } from '../protocol/records.js';
import type { OptionsResult } from '../protocol/start-answers.js';
import type { TaskName, TaskParams, TaskResult, TaskSchemas } from '../protocol/task-schemas.js';
import type { TaskJournal } from '../state/task-journal.js';
import type { UseTaskOptionsOptions, UseTaskResultOptions } from './hook-options.js';
import {
  taskOptionsQueryOptions,
  taskResultQueryOptions,
  type TaskwireQueryOptions,
} from './query-options.js';

/** The query of `useTaskResult`: task `id`'s record, polled, idle while `id` is `undefined`. */
export function watchedRecordQuery<Tasks extends TaskSchemas, Name extends TaskName<Tasks>>(
  client: TaskClient<Tasks>,
  task: Name,
  id: string | undefined,
  options: UseTaskResultOptions,
  journal: TaskJournal | undefined,
): TaskwireQueryOptions<TaskRecord<TaskResult<Tasks, Name>>> & { enabled: boolean } {
  const read = taskResultQueryOptions(client, task, id ?? '', {
    polling: options.polling,
    journal,
  });
  return { ...read, enabled: id !== undefined && options.enabled !== false };
}

/**
 * The query of `useTaskOptions`: the quote of the (debounced) `params`, none while they are
 * `undefined`, the previous quote kept while the next loads (`isPlaceholderData`).
 */
export function quoteQuery<Tasks extends TaskSchemas, Name extends TaskName<Tasks>>(
  client: TaskClient<Tasks>,
  task: Name,
  params: TaskParams<Tasks, Name> | undefined,
  options: UseTaskOptionsOptions,
): TaskwireQueryOptions<OptionsResult> & {
  enabled: boolean;
  placeholderData: typeof keepPreviousData;
} {
  // The hook's options carry the query's own `staleTime`.
  const price = taskOptionsQueryOptions(
    client,
    task,
    params ?? ({} as TaskParams<Tasks, Name>),
    options,
  );
  return {
    ...price,
    enabled: params !== undefined && options.enabled !== false,
    placeholderData: keepPreviousData,
  };
}
