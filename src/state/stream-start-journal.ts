/**
 * The journal's part in the streams started under a `resumeKey` (docs/protocol.md, "The hooks", on
 * the journal), framework-free: `useTaskStream` adapts it. A start is recorded before its request
 * leaves, so that one cut before its task id arrived (a reload, a connection that broke before any
 * answer) is listed as a start whose outcome is unknown; the task's entry, with the params it was
 * started with where the journal keeps params, replaces it when the id arrives; a start that was
 * refused made no task and is forgotten, so it leaves no list row.
 */
import type { TaskwireError } from '../client/errors.js';
import type { TaskJournal } from './task-journal.js';
import type { TaskStreamStatus } from './task-stream-state.js';

/** Where a {@link StreamStartJournal} records its starts. */
export interface StreamStartJournalOptions {
  /** The provider's journal. */
  journal: TaskJournal;
  /** The client's scope. */
  scope: string;
  /** The `resumeKey` the streams are started under. */
  key: string;
  /** The task name. */
  task: string;
}

/** The journal of the streams of one `resumeKey`. */
export interface StreamStartJournal {
  /** Records the start of a run with `params`, before its request leaves. */
  begin(params: unknown): void;
  /** The service accepted the latest run with task `id`: the task's entry replaces the start. */
  accepted(id: string): void;
  /**
   * The latest run ended in `error` before any task id arrived: a refusal (an HTTP error answer,
   * the client's own checks, a token getter that threw) forgets its start; any other error leaves
   * it listed, since its task may exist.
   */
  failedBeforeTaskId(error: TaskwireError): void;
  /** The id of the task started under the key before (a reload ago), to take up, or `undefined`. */
  taskToResume(): string | undefined;
}

/** Whether `error` refused a start, so that no task was made. */
function isRefusal(error: TaskwireError): boolean {
  return (
    error.code === 'http' ||
    error.code === 'auth' ||
    // The client's own checks name their rule in `reason`; a broken answer has none.
    (error.code === 'protocol' && error.reason !== undefined)
  );
}

/** Creates the {@link StreamStartJournal} of one `resumeKey`. */
export function createStreamStartJournal({
  journal,
  scope,
  key,
  task,
}: StreamStartJournalOptions): StreamStartJournal {
  // The params of the latest start, for its entry once the task id arrives.
  let latestParams: unknown;
  return {
    begin(params) {
      latestParams = params;
      journal.begin(scope, { key, task, mode: 'stream', startedAt: Date.now() });
    },
    accepted(id) {
      journal.record(scope, {
        key,
        task,
        id,
        mode: 'stream',
        status: 'IN_PROGRESS',
        startedAt: Date.now(),
        // Kept with the entry only by a journal with `keepParams`.
        params: latestParams,
      });
    },
    failedBeforeTaskId(error) {
      // The key's start is this stream's: a key names one task, or start, at a time.
      if (isRefusal(error)) journal.forgetStart(scope, key);
    },
    taskToResume: () =>
      journal.entries(scope).find((entry) => entry.key === key && entry.task === task)?.id,
  };
}

/**
 * The status a journal entry takes when its stream shows `status`: `COMPLETED` or `FAILED` once the
 * task ended (so a reload after it shows the outcome, not a recovery), else `undefined`.
 */
export function streamEndStatus(status: TaskStreamStatus): 'COMPLETED' | 'FAILED' | undefined {
  return status === 'completed' ? 'COMPLETED' : status === 'failed' ? 'FAILED' : undefined;
}
