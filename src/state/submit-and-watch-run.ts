/**
 * The run of a task over the stream budget (docs/protocol.md, "The stream budget"): with every
 * slot held, the task still starts at once, with Submit, and is followed through the watch of its
 * record instead of a stream of its own.
 */
import { submitWithRetries } from './submit-coalescer.js';
import { runFailure, type TaskRun, type TaskRunSource } from './task-run.js';

/** Settings of a {@link submitAndWatchRun}. */
export interface SubmitAndWatchRunOptions<Result, Event> {
  /** Sends the task's Submit: `client.submit(task, params, options)` with the run's params bound. */
  submit: (options: { idempotencyKey: string; signal: AbortSignal }) => Promise<{ id: string }>;
  /**
   * The run that follows task `taskId` once Submit answered: the watch of its record, or, after a
   * short start of a resumable stream, the read of its log.
   */
  watch: (taskId: string) => TaskRun<Result, Event>;
  /** What `watch` reads: the task's record (Submit over budget), or its stream's messages. Defaults to `record`. */
  source?: TaskRunSource;
}

/**
 * A {@link TaskRun} that sends Submit under one idempotency key (a retryable failure sent again with
 * it, so the task starts once), opens from the record once it answers, then goes on as `watch`'s run
 * with the same sink and signal.
 */
export function submitAndWatchRun<Result, Event>({
  submit,
  watch,
  source = 'record',
}: SubmitAndWatchRunOptions<Result, Event>): TaskRun<Result, Event> {
  return (sink, signal) => {
    void submitWithRetries((idempotencyKey) => submit({ idempotencyKey, signal }), signal).then(
      (taskId) => {
        sink.open(taskId, source);
        if (!signal.aborted) watch(taskId)(sink, signal);
      },
      (error: unknown) => {
        if (!signal.aborted) sink.fail(runFailure(error));
      },
    );
  };
}
