/**
 * Query keys and query-option factories over `@tanstack/query-core`, which every TanStack binding
 * (React's, Vue's) re-exports: the options the hooks and composables read a task with, and that
 * apps pass to `useQuery`, `useSuspenseQuery`, `prefetchQuery` and `ensureQueryData` themselves.
 */
import {
  type DataTag,
  type OmitKeyof,
  type Query,
  type QueryFunction,
  type QueryObserverOptions,
} from '@tanstack/query-core';
import { TaskwireError } from '../client/errors.js';
import {
  nextPollDelay,
  type PollingPolicyOptions,
  type PollState,
} from '../state/polling-policy.js';
import type { TaskJournal } from '../state/task-journal.js';
import type { ReadSharedRecord, SharedPollContext } from '../state/tab-poll-sharing.js';
import type { OptionsResult } from '../protocol/start-answers.js';
import type { TaskRecord } from '../protocol/records.js';
import type { TaskClient } from '../client/types.js';
import type { TaskName, TaskParams, TaskResult, TaskSchemas } from '../protocol/task-schemas.js';

/**
 * Query keys of taskwire's queries, each under the client's `scope` (`client.scope`), so that two
 * clients on one QueryClient never share an entry: `['taskwire', scope, 'result', task, id]` and
 * `['taskwire', scope, 'options', task, params]`.
 */
export const taskwireKeys = {
  /** Every taskwire query, of every client. */
  all: ['taskwire'] as const,
  /** Every query of the clients with this scope (for `invalidateQueries` or `removeQueries`). */
  scope: (scope: string) => ['taskwire', scope] as const,
  /** The Get Result query of one task. */
  result: (scope: string, task: string, id: string) =>
    ['taskwire', scope, 'result', task, id] as const,
  /** The Options query of one task and params. */
  options: (scope: string, task: string, params: unknown) =>
    ['taskwire', scope, 'options', task, params] as const,
};

// When each query started polling, for the overall deadline.
const pollingStartedAt = new WeakMap<object, number>();
// Each query's error count at its last success: TanStack Query resets `fetchFailureCount` at every
// fetch, so errors in a row are counted from `errorUpdateCount`, which only grows.
const errorCountAtLastSuccess = new WeakMap<object, number>();
// The service's Retry-After hint of each query's last record, in milliseconds: the query's own
// state, as the two above, keyed by its key object, which TanStack Query hands the query function
// too. Told by Get Result's `onRetryAfter`, or by the tab that polls for this one.
const retryAfterOfQuery = new WeakMap<object, number>();

/** Keeps `retryAfterMs` as the hint of the query whose key object is `queryKey`. */
function keepRetryAfter(queryKey: readonly unknown[], retryAfterMs: number | undefined): void {
  if (retryAfterMs === undefined) retryAfterOfQuery.delete(queryKey);
  else retryAfterOfQuery.set(queryKey, retryAfterMs);
}

function errorsInARow(query: ResultQuery): number {
  const { errorUpdateCount, errorUpdatedAt, dataUpdatedAt } = query.state;
  if (errorUpdateCount === 0 || dataUpdatedAt >= errorUpdatedAt) {
    errorCountAtLastSuccess.set(query, errorUpdateCount);
    return 0;
  }
  return errorUpdateCount - (errorCountAtLastSuccess.get(query) ?? 0);
}

type ResultQuery = Query<
  TaskRecord<unknown>,
  TaskwireError,
  TaskRecord<unknown>,
  readonly unknown[]
>;

function pollStateOf(query: ResultQuery): PollState {
  // Polling starts with the first answer. Before it no clock is read: TanStack Query asks for the
  // schedule in render (a new observer does), a server's render included, whose HTML must not
  // depend on the time (docs/protocol.md, "The hooks").
  const answered = query.state.dataUpdatedAt !== 0 || query.state.errorUpdatedAt !== 0;
  const now = answered ? Date.now() : 0;
  if (answered && !pollingStartedAt.has(query)) pollingStartedAt.set(query, now);
  const record = query.state.data;
  return {
    status: record?.status,
    estimatedSecondsLeft: record?.progress.estimatedSecondsLeft,
    retryAfterMs: record ? retryAfterOfQuery.get(query.queryKey) : undefined,
    errorCount: errorsInARow(query),
    error: query.state.error,
    startedAt: pollingStartedAt.get(query) ?? now,
    now,
  };
}

/**
 * What the query-option factories return: TanStack Query's query options with a query function and
 * a key tagged with the data, as `queryOptions` of `@tanstack/react-query` or `@tanstack/vue-query`
 * returns them, so `getQueryData(options.queryKey)` is typed.
 */
export type TaskwireQueryOptions<Data> = OmitKeyof<
  QueryObserverOptions<Data, TaskwireError, Data, Data, readonly unknown[]>,
  'queryFn' | 'queryKey'
> & {
  queryFn: QueryFunction<Data, readonly unknown[]>;
  queryKey: DataTag<readonly unknown[], Data, TaskwireError>;
};

/** Options of {@link taskResultQueryOptions}. */
export interface TaskResultQueryConfig {
  /** The polling schedule (floor, ceiling, backoff, deadline); see `PollingPolicyOptions` for defaults. */
  polling?: PollingPolicyOptions;
  /**
   * The provider's journal: with one, the tabs of this origin watching the task share one poll
   * (`TaskJournal.sharePoll`; docs/protocol.md, "The hooks"). Defaults to none: this tab polls alone.
   */
  journal?: TaskJournal | undefined;
}

/**
 * Query options that read a task's record and poll it until COMPLETED or FAILED: the interval follows
 * the task's estimated time left within a floor and a ceiling, respects the service's `Retry-After`,
 * backs off with jitter on 429 and 5xx, stops on errors that will not heal, and pauses while the tab
 * is hidden. A terminal record is never fetched again.
 */
export function taskResultQueryOptions<Tasks extends TaskSchemas, Name extends TaskName<Tasks>>(
  client: TaskClient<Tasks>,
  task: Name,
  id: string,
  config: TaskResultQueryConfig = {},
): TaskwireQueryOptions<TaskRecord<TaskResult<Tasks, Name>>> {
  const read: ReadSharedRecord<TaskRecord<TaskResult<Tasks, Name>>> = ({ signal, onRetryAfter }) =>
    client.getResult(task, id, { signal, onRetryAfter });
  const { journal } = config;
  let shared: ((context: SharedPollContext) => ReturnType<typeof read>) | undefined;
  return {
    // Tagged with its data, as TanStack's `queryOptions` tags it, so `getQueryData` is typed.
    queryKey: taskwireKeys.result(client.scope, task, id) as readonly unknown[] as DataTag<
      readonly unknown[],
      TaskRecord<TaskResult<Tasks, Name>>,
      TaskwireError
    >,
    // Shared on the first fetch, not here: these options are built in every render, the server's
    // included, where nothing may open a channel or read storage.
    queryFn: (context) => {
      const onRetryAfter = (retryAfterMs: number | undefined) =>
        keepRetryAfter(context.queryKey, retryAfterMs);
      if (!journal) return read({ signal: context.signal, onRetryAfter });
      shared ??= journal.sharePoll(client, task, id, read, config.polling);
      return shared({ ...context, onRetryAfter });
    },
    // Polling does its own backoff; TanStack's retries would multiply the requests.
    retry: false,
    // Fresh until the next poll is due, so a component mounting between two polls joins the schedule.
    // A terminal record, or polling that stopped, is never stale.
    staleTime: (query) => {
      const delay = nextPollDelay(pollStateOf(query as ResultQuery), config.polling);
      return delay === false ? Infinity : delay;
    },
    refetchInterval: (query) => nextPollDelay(pollStateOf(query as ResultQuery), config.polling),
  };
}

/** Options of {@link taskOptionsQueryOptions}. */
export interface TaskOptionsQueryConfig {
  /** How long a quote stays fresh, in milliseconds. Defaults to `300000` (five minutes). */
  staleTime?: number;
}

/**
 * Query options that ask what a task would cost with these params (docs/protocol.md, "Options"),
 * without running it.
 */
export function taskOptionsQueryOptions<Tasks extends TaskSchemas, Name extends TaskName<Tasks>>(
  client: TaskClient<Tasks>,
  task: Name,
  params: TaskParams<Tasks, Name>,
  config: TaskOptionsQueryConfig = {},
): TaskwireQueryOptions<OptionsResult> {
  return {
    queryKey: taskwireKeys.options(client.scope, task, params) as readonly unknown[] as DataTag<
      readonly unknown[],
      OptionsResult,
      TaskwireError
    >,
    queryFn: ({ signal }) => client.options(task, params, { signal }),
    staleTime: config.staleTime ?? 300_000,
    retry: (failureCount, error) =>
      TaskwireError.isInstance(error) && error.retryable && failureCount < 3,
  };
}
