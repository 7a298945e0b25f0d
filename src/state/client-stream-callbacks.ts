/**
 * The callbacks of a stream controller for one task of a client: what a binding's `useTaskStream`
 * hands its controller (React's, and any other framework's the same way), so that only the record
 * watch and the cache the task's other views read are the binding's own.
 */
import type { TaskClient } from '../client/types.js';
import type { TaskRecord } from '../protocol/records.js';
import type {
  TaskCustomEvent,
  TaskName,
  TaskParams,
  TaskResult,
  TaskSchemas,
} from '../protocol/task-schemas.js';
import { clientResumableStreams } from './client-resumable-streams.js';
import type { StreamStartJournal } from './stream-start-journal.js';
import type { ReleaseStreamSlot } from './stream-slots.js';
import type { TaskStreamCallbacks } from './task-stream-controller.js';
import type { WatchTaskRecord } from './watch-task-record.js';

/** Settings of {@link clientStreamCallbacks}. */
export interface ClientStreamCallbacksOptions<
  Tasks extends TaskSchemas,
  Name extends TaskName<Tasks>,
> {
  /** The client that streams and submits the task. */
  client: TaskClient<Tasks>;
  /** The task's name. */
  task: Name;
  /** Takes a slot of the client's stream budget: `streamSlots(client.baseUrl, client.maxOpenStreams)`. */
  takeSlot: () => Promise<ReleaseStreamSlot | undefined>;
  /** The binding's watch of the task's record (the poll every view of the task shares). */
  watchRecord: WatchTaskRecord<TaskResult<Tasks, Name>>;
  /** Writes a record the stream amounts to into the cache every view of the task reads. */
  onRecord: (record: TaskRecord<TaskResult<Tasks, Name>>) => void;
  /** The app's `onEvent`, called for every custom event. Defaults to none. */
  onEvent?: ((event: TaskCustomEvent<Tasks, Name>) => void) | undefined;
  /** The journal of the stream's `resumeKey`, which records the task id. Defaults to none. */
  journal?: StreamStartJournal | undefined;
}

/** The {@link TaskStreamCallbacks} of `task` streamed by `client`, within its stream budget. */
export function clientStreamCallbacks<Tasks extends TaskSchemas, Name extends TaskName<Tasks>>({
  client,
  task,
  takeSlot,
  journal,
  ...callbacks
}: ClientStreamCallbacksOptions<Tasks, Name>): TaskStreamCallbacks<
  TaskParams<Tasks, Name>,
  TaskResult<Tasks, Name>,
  TaskCustomEvent<Tasks, Name>
> {
  return {
    ...callbacks,
    openStream: (params, streamOptions) => client.stream(task, params, streamOptions),
    // At most `maxOpenStreams` open per origin; over it, Submit and the shared poll.
    streamBudget: {
      takeSlot,
      submit: (params, submitOptions) => client.submit(task, params, submitOptions),
    },
    // Where the service offers them: one read of the page for every stream, resumed after any break.
    resumable: clientResumableStreams(client, task),
    // Written ahead: a start cut by a reload before its task id arrived is listed, as unknown.
    onStart: journal?.begin,
    onTaskId: journal?.accepted,
  };
}
