/**
 * A {@link WatchTaskRecord} without any framework, for tests of the stream's state machine without
 * React: reads the record with the client's Get Result on the schedule of the polling policy (the
 * same one `useTaskResult` follows), until the task ends, the policy gives up, or the watch is
 * stopped. The package itself gives the state machine the React layer's watch
 * (src/query/query-record-watcher.ts), so this loop lives with the tests.
 */
import { TaskwireError } from '../../src/client/errors.js';
import type { GetResultOptions } from '../../src/client/types.js';
import type { TaskRecord, TaskStatus } from '../../src/protocol/records.js';
import { nextPollDelay, type PollingPolicyOptions } from '../../src/state/polling-policy.js';
import type { WatchTaskRecord } from '../../src/state/watch-task-record.js';

/** Reads a task's record once: a bound `client.getResult(task, id, options)`. */
export type ReadTaskRecord<Result> = (
  taskId: string,
  options: GetResultOptions,
) => Promise<TaskRecord<Result>>;

/** Creates a watch that polls `read` by the policy `polling` (its defaults when left out). */
export function pollTaskRecord<Result>(
  read: ReadTaskRecord<Result>,
  polling: PollingPolicyOptions = {},
): WatchTaskRecord<Result> {
  return (taskId, listener) => {
    const abort = new AbortController();
    const startedAt = Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let status: TaskStatus | undefined;
    let estimatedSecondsLeft: number | undefined;
    let retryAfterMs: number | undefined;
    let errorCount = 0;
    let error: unknown;

    const poll = async (): Promise<void> => {
      try {
        const record = await read(taskId, {
          signal: abort.signal,
          onRetryAfter: (hint) => (retryAfterMs = hint),
        });
        if (abort.signal.aborted) return;
        ({ status } = record);
        estimatedSecondsLeft = record.progress.estimatedSecondsLeft;
        errorCount = 0;
        error = undefined;
        listener.onRecord(record);
      } catch (caught) {
        if (abort.signal.aborted) return;
        errorCount += 1;
        error = caught;
        listener.onError(
          TaskwireError.isInstance(caught)
            ? caught
            : new TaskwireError('protocol', 'Reading the task failed unexpectedly.', {
                taskId,
                cause: caught,
              }),
        );
      }
      // A listener may have stopped the watch (a final record); then nothing more is asked.
      if (abort.signal.aborted) return;
      const state = { status, estimatedSecondsLeft, retryAfterMs, errorCount, error };
      const delay = nextPollDelay({ ...state, startedAt, now: Date.now() }, polling);
      if (delay !== false) timer = setTimeout(() => void poll(), delay);
    };

    void poll();
    return () => {
      abort.abort();
      clearTimeout(timer);
    };
  };
}
