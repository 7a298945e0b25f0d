/**
 * The callbacks a binding's `useTaskStream` hands its stream controller, over TanStack Query: the
 * client's stream and Submit (src/state/client-stream-callbacks.ts), the record watch that shares
 * the poll of every `useTaskResult` of the task, and the cache write that makes every view of the
 * task show the stream's progress (one task, one truth on a page; docs/protocol.md, "The hooks").
 */
import type { QueryClient } from '@tanstack/query-core';
import type { TaskClient } from '../client/types.js';
import type { TaskRecord } from '../protocol/records.js';
import type {
  TaskCustomEvent,
  TaskName,
  TaskParams,
  TaskResult,
  TaskSchemas,
} from '../protocol/task-schemas.js';
import { clientStreamCallbacks } from '../state/client-stream-callbacks.js';
import { lacksFinalUsage, mergeStreamRecord } from '../state/merge-stream-record.js';
import type { StreamStartJournal } from '../state/stream-start-journal.js';
import { streamSlots } from '../state/stream-slots.js';
import type { TaskJournal } from '../state/task-journal.js';
import type { TaskStreamCallbacks } from '../state/task-stream-controller.js';
import type { UseTaskStreamOptions } from './hook-options.js';
import { taskwireKeys } from './query-options.js';
import { queryRecordWatcher } from './query-record-watcher.js';

/** Where the streams of a binding's `useTaskStream` go: its client, cache and journal. */
export interface QueryStreamContext<Tasks extends TaskSchemas> {
  /** The QueryClient whose cache every view of the task reads. */
  queryClient: QueryClient;
  /** The client that streams and submits the task. */
  client: TaskClient<Tasks>;
  /** The provider's journal, which shares the record watch's poll with the other tabs. Defaults to none. */
  journal?: TaskJournal | undefined;
  /** The journal of the stream's `resumeKey`. Defaults to none. */
  startJournal?: StreamStartJournal | undefined;
}

/**
 * The {@link TaskStreamCallbacks} of `task` streamed by `context.client`, its records in
 * `context.queryClient`, with the hook's `polling` (while recovering) and `onEvent`.
 */
export function queryStreamCallbacks<Tasks extends TaskSchemas, Name extends TaskName<Tasks>>(
  { queryClient, client, journal, startJournal }: QueryStreamContext<Tasks>,
  task: Name,
  { polling, onEvent }: UseTaskStreamOptions<TaskCustomEvent<Tasks, Name>>,
): TaskStreamCallbacks<
  TaskParams<Tasks, Name>,
  TaskResult<Tasks, Name>,
  TaskCustomEvent<Tasks, Name>
> {
  return clientStreamCallbacks({
    client,
    task,
    // Made with the callbacks, at each configure: it reads the page's Web Locks, a cheap look.
    takeSlot: streamSlots(client.baseUrl, client.maxOpenStreams),
    watchRecord: queryRecordWatcher(queryClient, client, task, polling, journal),
    // One task, one truth on a page: every view of the task reads this entry.
    onRecord: (record) => {
      const queryKey = taskwireKeys.result(client.scope, task, record.id);
      const cached = queryClient.setQueryData<TaskRecord<TaskResult<Tasks, Name>>>(
        queryKey,
        (previous) => mergeStreamRecord(previous, record),
      );
      // Get Result may have the usage the stream left out: the views watching read it once.
      if (cached && lacksFinalUsage(cached))
        void queryClient.invalidateQueries({ queryKey, exact: true });
    },
    onEvent,
    journal: startJournal,
  });
}
