/**
 * The run that follows a task through the watch of its record (docs/protocol.md, "Streams" and
 * "The stream budget"): the outcome of a task whose stream broke, of one taken up after a reload,
 * and the whole of one started with Submit over the stream budget. It never posts the task again.
 */
import { TaskwireError } from '../client/errors.js';
import { createEventTracker } from './event-tracker.js';
import type { TaskRun } from './task-run.js';
import type { WatchTaskRecord } from './watch-task-record.js';

/** Settings of a {@link watchRun}. */
export interface WatchRunOptions<Result> {
  /** The task whose record is watched. */
  taskId: string;
  /**
   * What came before: `break` when the task's stream broke or the page was reloaded while it ran
   * (the state shows `recovering`); `submit` when it was started with Submit over the stream budget
   * (the state stays `streaming`, and the custom events its records list are told by reference).
   */
  after: 'break' | 'submit';
  /** Reads the task's record until it settles (the poll every view of the task shares). */
  watchRecord: WatchTaskRecord<Result>;
  /** How long the run may go without a record before it gives up with `error`, in milliseconds. */
  recoverForMs: number;
}

/**
 * A {@link TaskRun} that reports every record the watch reads and every failed read that may heal;
 * a read that will not heal, or `recoverForMs` without a record, fails the run.
 */
export function watchRun<Result, Event>({
  taskId,
  after,
  watchRecord,
  recoverForMs,
}: WatchRunOptions<Result>): TaskRun<Result, Event> {
  return (sink, signal) => {
    // Get Result lists custom events as `{ type, id }` only (docs/protocol.md, "The stream budget"):
    // after a Submit they are told by reference, each once.
    const told = createEventTracker();
    // The latest failed read, cleared by a record: what the run gives up with.
    let failure: TaskwireError | undefined;
    let giveUp: ReturnType<typeof setTimeout> | undefined;
    const restartDeadline = () => {
      clearTimeout(giveUp);
      giveUp = setTimeout(() => {
        sink.fail(
          failure ??
            new TaskwireError(
              'timeout',
              `The task's outcome could not be read for ${recoverForMs} ms${after === 'submit' ? '' : ' after its stream broke'}.`,
              { taskId },
            ),
        );
      }, recoverForMs);
    };
    signal.addEventListener('abort', () => clearTimeout(giveUp), { once: true });
    if (after === 'break') sink.recovering(taskId);
    restartDeadline();
    const stopWatch = watchRecord(taskId, {
      onRecord(record) {
        if (signal.aborted || record.id !== taskId) return;
        if (after === 'submit') {
          for (const { type, id } of told.takeNew(record.events)) {
            sink.event({ type, eventId: id } as unknown as Event);
          }
        }
        failure = undefined;
        restartDeadline();
        sink.record(record);
      },
      onError(error) {
        if (signal.aborted) return;
        // A retryable failure is retried by the watch's policy; the others will not heal.
        if (!error.retryable) return sink.fail(error);
        failure = error;
        sink.readFailed(error);
      },
    });
    // A watch may report a final record before it returns (one already cached): then it is over.
    if (signal.aborted) stopWatch();
    else signal.addEventListener('abort', stopWatch, { once: true });
  };
}
