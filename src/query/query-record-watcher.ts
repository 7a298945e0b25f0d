/**
 * The record watch of a recovering stream, over TanStack Query: an observer of the same query that
 * `useTaskResult` reads, so a recovering stream and every component watching that task share one
 * poll, and its records land in the cache. With the provider's journal, the poll is shared with the
 * other tabs too (docs/protocol.md, "The hooks").
 */
import { QueryObserver, type QueryClient } from '@tanstack/query-core';
import type { TaskClient } from '../client/types.js';
import type { TaskRecord } from '../protocol/records.js';
import type { PollingPolicyOptions } from '../state/polling-policy.js';
import type { TaskJournal } from '../state/task-journal.js';
import type { WatchTaskRecord } from '../state/watch-task-record.js';
import { taskResultQueryOptions } from './query-options.js';

/**
 * A {@link WatchTaskRecord} that observes `task`'s Get Result query in `queryClient`, its poll shared
 * with the other tabs through `journal` when there is one.
 */
export function queryRecordWatcher<Result>(
  queryClient: QueryClient,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any task map; typed by the hook
  client: TaskClient<any>,
  task: string,
  polling: PollingPolicyOptions | undefined,
  journal?: TaskJournal,
): WatchTaskRecord<Result> {
  return (taskId, listener) => {
    const observer = new QueryObserver(
      queryClient,
      taskResultQueryOptions(client, task, taskId, { ...(polling ? { polling } : {}), journal }),
    );
    let reported: { data: unknown; error: unknown } = { data: undefined, error: undefined };
    const report = (result: { data?: unknown; error: unknown }) => {
      // The observer tells every change of fetch status too; only a new record or error counts. A
      // good read after a failed one counts although its record is the same object (TanStack keeps
      // an equal answer's previous object): it is what tells the stream that reads answer again.
      const healed = reported.error !== undefined && reported.error !== null && !result.error;
      if (result.data !== undefined && (result.data !== reported.data || healed)) {
        listener.onRecord(result.data as TaskRecord<Result>);
      }
      if (result.error && result.error !== reported.error) {
        listener.onError(result.error as Parameters<typeof listener.onError>[0]);
      }
      reported = { data: result.data, error: result.error };
    };
    const unsubscribe = observer.subscribe(report);
    report(observer.getCurrentResult());
    return unsubscribe;
  };
}
