/**
 * The queries of `useCompletionNotice`, over `@tanstack/query-core`: the journal's running tasks,
 * polled with the shared policy of `useTaskResult` while the page is visible and at the policy's
 * ceiling while it is hidden, so a task that ends in the background is noticed
 * (src/state/completion-notice.ts; docs/protocol.md, "The hooks").
 */
import type { TaskClient } from '../client/types.js';
import { isTerminalStatus, type TaskRecord } from '../protocol/records.js';
import {
  isPageHidden,
  slowestPollDelay,
  type PollingPolicyOptions,
} from '../state/polling-policy.js';
import type { TaskJournal, TaskJournalEntry } from '../state/task-journal.js';
import { taskResultQueryOptions, type TaskwireQueryOptions } from './query-options.js';

/** The queries that poll the running tasks of `entries`, also while the page is hidden. */
export function completionNoticeQueries(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a journal holds any task's names
  client: TaskClient<any>,
  entries: readonly TaskJournalEntry[],
  polling: PollingPolicyOptions | undefined,
  journal: TaskJournal | undefined,
): TaskwireQueryOptions<TaskRecord>[] {
  const ceiling = slowestPollDelay(polling);
  return entries
    .filter((entry) => !isTerminalStatus(entry.status))
    .map((entry) => {
      const base = taskResultQueryOptions(client, entry.task, entry.id, {
        ...(polling ? { polling } : {}),
        journal,
      });
      type PolicyInterval = Extract<typeof base.refetchInterval, (...args: never[]) => unknown>;
      return {
        ...base,
        refetchInterval: (query: Parameters<PolicyInterval>[0]) => {
          const delay =
            typeof base.refetchInterval === 'function'
              ? base.refetchInterval(query)
              : base.refetchInterval;
          // Read at every poll: hidden, the slowest pace; visible again, the policy's.
          return delay === false || delay === undefined || !isPageHidden()
            ? delay
            : Math.max(delay, ceiling);
        },
        refetchIntervalInBackground: true,
      };
    });
}
