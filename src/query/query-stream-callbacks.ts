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
import type { PollingPolicyOptions } from '../state/polling-policy.js';
import type { StreamStartJournal } from '../state/stream-start-journal.js';
import type { ReleaseStreamSlot } from '../state/stream-slots.js';
import type { TaskJournal } from '../state/task-journal.js';
import type { TaskStreamCallbacks } from '../state/task-stream-controller.js';
import { taskwireKeys } from './query-options.js';
import { queryRecordWatcher } from './query-record-watcher.js';

/** Settings of {@link queryStreamCallbacks}. */
export interface QueryStreamCallbacksOptions<
  Tasks extends TaskSchemas,
  Name extends TaskName<Tasks>,
> {
  /** The QueryClient whose cache every view of the task reads. */
  queryClient: QueryClient;
  /** The client that streams and submits the task. */
  client: TaskClient<Tasks>;
  /** The task's name. */
  task: Name;
  /** Takes a slot of the client's stream budget: `streamSlots(client.baseUrl, client.maxOpenStreams)`. */
  takeSlot: () => Promise<ReleaseStreamSlot | undefined>;
  /** The polling schedule of the record watch. Defaults to the policy's. */
  polling?: PollingPolicyOptions | undefined;
  /** The provider's journal, which shares the record watch's poll with the other tabs. Defaults to none. */
  journal?: TaskJournal | undefined;
  /** The journal of the stream's `resumeKey`. Defaults to none. */
  startJournal?: StreamStartJournal | undefined;
  /** The app's `onEvent`, called for every custom event. Defaults to none. */
  onEvent?: ((event: TaskCustomEvent<Tasks, Name>) => void) | undefined;
}

/** Writes a record a stream amounts to into the Get Result entry of its task in `queryClient`. */
export function writeStreamRecord<Result>(
  queryClient: QueryClient,
  scope: string,
  task: string,
  record: TaskRecord<Result>,
): void {
  const queryKey = taskwireKeys.result(scope, task, record.id);
  const cached = queryClient.setQueryData<TaskRecord<Result>>(queryKey, (previous) =>
    mergeStreamRecord(previous, record),
  );
  // Get Result may have the usage the stream left out: the views watching read it once.
  if (cached && lacksFinalUsage(cached)) {
    void queryClient.invalidateQueries({ queryKey, exact: true });
  }
}

/** The {@link TaskStreamCallbacks} of `task` streamed by `client`, its records in `queryClient`. */
export function queryStreamCallbacks<Tasks extends TaskSchemas, Name extends TaskName<Tasks>>({
  queryClient,
  client,
  task,
  takeSlot,
  polling,
  journal,
  startJournal,
  onEvent,
}: QueryStreamCallbacksOptions<Tasks, Name>): TaskStreamCallbacks<
  TaskParams<Tasks, Name>,
  TaskResult<Tasks, Name>,
  TaskCustomEvent<Tasks, Name>
> {
  return clientStreamCallbacks({
    client,
    task,
    takeSlot,
    watchRecord: queryRecordWatcher(queryClient, client, task, polling, journal),
    onRecord: (record) => writeStreamRecord(queryClient, client.scope, task, record),
    onEvent,
    journal: startJournal,
  });
}
