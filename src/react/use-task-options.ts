'use client';
import { keepPreviousData, useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { TaskwireError } from '../client/errors.js';
import type { OptionsResult } from '../protocol/start-answers.js';
import type { TaskName, TaskParams } from '../protocol/task-schemas.js';
import { taskOptionsQueryOptions } from './query-options.js';
import type { RegisteredTasks } from './register.js';
import { useTaskClient } from './taskwire-provider.js';
import { useDebouncedValue } from './use-debounced-value.js';

/** Options of {@link useTaskOptions}. */
export interface UseTaskOptionsOptions {
  /** How long params must hold still before they are priced, in milliseconds. Defaults to `250`. */
  debounceMs?: number;
  /** Set to `false` to pause the query. Defaults to `true`. */
  enabled?: boolean;
  /** How long a quote stays fresh, in milliseconds. Defaults to `300000`. */
  staleTime?: number;
}

/** What {@link useTaskOptions} returns: TanStack Query's query result; `data` is the quote or `{}`. */
export type UseTaskOptionsResult = UseQueryResult<OptionsResult, TaskwireError>;

/**
 * Asks what a task would cost with these params, before the user commits. One request per distinct
 * params (by content), debounced while they change; the previous quote stays shown while the next
 * loads (`isPlaceholderData`). No request while `params` is `undefined`. Params that fail the task's
 * schema in the client's task map are refused before sending: the query is in `error` with the
 * `protocol` / `INVALID_PARAMS` error (never left pending), and no earlier quote is shown for them.
 */
export function useTaskOptions<Name extends TaskName<RegisteredTasks>>(
  task: Name,
  params: TaskParams<RegisteredTasks, Name> | undefined,
  options: UseTaskOptionsOptions = {},
): UseTaskOptionsResult {
  const client = useTaskClient();
  const debounced = useDebouncedValue(params, options.debounceMs ?? 250);
  return useQuery({
    ...taskOptionsQueryOptions(
      client,
      task,
      (debounced ?? {}) as TaskParams<RegisteredTasks, Name>,
      {
        ...(options.staleTime !== undefined ? { staleTime: options.staleTime } : {}),
      },
    ),
    enabled: debounced !== undefined && (options.enabled ?? true),
    placeholderData: keepPreviousData,
  });
}
