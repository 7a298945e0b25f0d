'use client';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import type { TaskwireError } from '../client/errors.js';
import type { OptionsResult } from '../protocol/start-answers.js';
import type { TaskName, TaskParams } from '../protocol/task-schemas.js';
import type { UseTaskOptionsOptions } from '../query/hook-options.js';
import { quoteQuery } from '../query/hook-queries.js';
import { rememberingQuoteStanding } from '../state/quote-standing.js';
import type { RegisteredTasks } from '../query/register.js';
import { useTaskClient } from './taskwire-provider.js';
import { useDebouncedValue } from './use-debounced-value.js';

export type { UseTaskOptionsOptions } from '../query/hook-options.js';

/**
 * What {@link useTaskOptions} returns: TanStack Query's query result (`data` is the quote or `{}`),
 * and which params that quote is for (docs/protocol.md, "The hooks").
 */
export type UseTaskOptionsResult<Params = unknown> = UseQueryResult<
  OptionsResult,
  TaskwireError
> & {
  /** The params `data` is the quote for; `undefined` while there is no quote. */
  quotedParams: Params | undefined;
  /**
   * Whether `data` is a quote for other params than the hook was given last (compared by content):
   * while they wait out the debounce, while their request is on its way, and while a quote for
   * earlier params is kept (`isPlaceholderData`) or the params are `undefined`. A stale quote is
   * not the price of what the user would start: show it as updating and start nothing.
   * `false` while there is no quote. Not TanStack Query's `isStale`, which is about `staleTime`.
   */
  isQuoteStale: boolean;
};

/**
 * Asks what a task would cost with these params, before the user commits. One request per distinct
 * params (by content), debounced while they change; the previous quote stays shown while the next
 * loads (`isPlaceholderData`), and `quotedParams` / `isQuoteStale` say which params it is for, so a
 * start button waits for the price of what it would start. No request while `params` is
 * `undefined`. Params that fail the task's schema in the client's task map are refused before
 * sending: the query is in `error` with the `protocol` / `INVALID_PARAMS` error (never left
 * pending), and no earlier quote is shown for them.
 */
export function useTaskOptions<Name extends TaskName<RegisteredTasks>>(
  task: Name,
  params: TaskParams<RegisteredTasks, Name> | undefined,
  options: UseTaskOptionsOptions = {},
): UseTaskOptionsResult<TaskParams<RegisteredTasks, Name>> {
  const client = useTaskClient();
  const debounced = useDebouncedValue(params, options.debounceMs ?? 250);
  const keyParams = debounced ?? {};
  const query = useQuery(quoteQuery(client, task, debounced, options));

  // A placeholder is the quote this hook showed before, kept by keepPreviousData: the hook
  // remembers its last quote of its own to say whose params it was for.
  const [standingOf] = useState(rememberingQuoteStanding<TaskParams<RegisteredTasks, Name>>);
  const { data, isPlaceholderData } = query;
  const { quotedParams, isQuoteStale } = standingOf({ data, isPlaceholderData, keyParams, params });
  // Spread, so every member is read and a change of any re-renders: the hook reads `data` itself,
  // and TanStack Query's tracking would otherwise hide the changes of members read only later.
  return { ...query, quotedParams, isQuoteStale };
}
