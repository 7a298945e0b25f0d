/**
 * The seam between the stream controller and the ways it follows a task (docs/protocol.md,
 * "Streams" and "The stream budget"). A run is how a task's messages reach the page: its stream
 * (stream-run.ts), a Submit followed by the watch of its record over the stream budget
 * (submit-and-watch-run.ts), or the watch alone (watch-run.ts: a broken stream's outcome, a task
 * taken up after a reload). The controller keeps the state and drives runs through this interface
 * only: it starts one with a sink and a signal, folds what the run says into the state, and tells
 * the page at most once per frame. A run knows nothing of the state, the frames, the stream
 * budget's slots or the page's callbacks, so a new way to follow a task (the resumable read of a
 * task's log after a position) is one more run module.
 */
import { TaskwireError } from '../client/errors.js';
import type { TaskRecord } from '../protocol/records.js';
import type { StreamEvent } from '../protocol/stream-events.js';

/**
 * One way of following a task. The controller calls it once, with the `sink` it reports to and a
 * `signal` that aborts when the run is over for the controller: stopped, replaced by another start,
 * handed over, or ended by what it reported (a final event or record, a failure). On that signal the
 * run stops all its work (its request, its watch, its timers); what it tells the sink afterwards is
 * ignored. A run may report from within this call already (a record found in a cache, say).
 */
export type TaskRun<Result, Event> = (
  sink: TaskRunSink<Result, Event>,
  signal: AbortSignal,
) => void;

/**
 * Where what a run reports after `open` comes from: `stream` for the task's own messages, with
 * their payloads (the controller hands the record they amount to to the page's other views of the
 * task), `record` for its record read with Get Result (which those views read already, so nothing
 * is handed back).
 */
export type TaskRunSource = 'stream' | 'record';

/**
 * What a {@link TaskRun} tells the controller, in the order it learns it. The controller reduces
 * each call into the stream's state (src/state/task-stream-state.ts); a run only reports.
 */
export interface TaskRunSink<Result, Event> {
  /**
   * The service took the task, with its id once known: the state shows `streaming` and the page
   * hears the id (the moment to journal it). `source` defaults to `stream`.
   */
  open(taskId: string | undefined, source?: TaskRunSource): void;
  /**
   * One message of the task, in the order the task sent it: progress, partial result, custom event
   * (each told to the page's `onEvent`), or the final event, which ends the run. A run that reads a
   * task's log with positions passes each message once, and keeps the position of the last one
   * itself, to read again after it or to hand it to the run it hands over to.
   */
  event(event: StreamEvent<Result> | Event): void;
  /** A record of the task, read with Get Result; a final one (`COMPLETED`, `FAILED`) ends the run. */
  record(record: TaskRecord<Result>): void;
  /**
   * The task's connection broke, or the page came back after a reload: the state shows `recovering`
   * task `taskId` while the run reads its outcome (docs/protocol.md, "Streams").
   */
  recovering(taskId: string): void;
  /**
   * A read of the task failed in a way that may heal, and the run goes on trying: the state shows
   * `recovering` with `error` until the next record.
   */
  readFailed(error: TaskwireError): void;
  /** The run cannot go on: the state ends in `error` with `error`, and the run is over. */
  fail(error: TaskwireError): void;
  /**
   * This run is over and `next` follows the same task from here (a stream that broke hands over to
   * the watch of its record): the controller ends this run (its signal aborts, its slot is freed)
   * and starts `next` with a sink and a signal of its own. The state goes on as it was.
   */
  handOver(next: TaskRun<Result, Event>): void;
}

/** Anything a stream or a Submit threw, as a `TaskwireError`. */
export function runFailure(error: unknown): TaskwireError {
  return TaskwireError.isInstance(error)
    ? error
    : new TaskwireError('protocol', 'The stream failed unexpectedly.', { cause: error });
}
