/**
 * The run of a task as a stream (docs/protocol.md, "Streams"): one POST, its events passed on as
 * they come. A stream that breaks once the task id is known hands over to the run that reads the
 * task's outcome instead of posting (and paying) again; the stream budget's slot it runs in is the
 * controller's to take and free.
 */
import { TaskwireError } from '../client/errors.js';
import type { StreamOptions, TaskStream } from '../client/types.js';
import type { StreamEvent } from '../protocol/stream-events.js';
import { runFailure, type TaskRun } from './task-run.js';

/** Settings of a {@link streamRun}. */
export interface StreamRunOptions<Result, Event> {
  /** Opens the task's stream: `client.stream(task, params, options)` with the run's params bound. */
  open: (options: StreamOptions) => TaskStream<StreamEvent<Result> | Event>;
  /**
   * The run that follows task `taskId` once its stream broke: given the position of the last
   * message read (`null` before the first) when the stream was resumable, the read of its log after
   * it; given `undefined`, the watch of its record.
   */
  afterBreak: (taskId: string, position: string | null | undefined) => TaskRun<Result, Event>;
}

/** A {@link TaskRun} that streams the task and hands over to `afterBreak` when the stream breaks. */
export function streamRun<Result, Event>({
  open,
  afterBreak,
}: StreamRunOptions<Result, Event>): TaskRun<Result, Event> {
  return (sink, signal) => {
    let taskId: string | undefined;
    let answered = false;
    let events: TaskStream<StreamEvent<Result> | Event> | undefined;
    const read = async () => {
      try {
        events = open({
          signal,
          onOpen: (info) => {
            taskId = info.taskId;
            answered = true;
            sink.open(info.taskId);
          },
        });
        for await (const event of events) {
          if (signal.aborted) return;
          sink.event(event);
        }
      } catch (error) {
        if (signal.aborted) return;
        const failure = runFailure(error);
        const knownTaskId = failure.taskId ?? taskId;
        // The task runs on at the service: read the rest of it (from its log after the last
        // position, where the stream was resumable) instead of posting, and paying, again.
        if (failure.code === 'network' && knownTaskId !== undefined) {
          sink.handOver(
            afterBreak(knownTaskId, events?.resumable ? (events.position ?? null) : undefined),
          );
          return;
        }
        // Before any answer, the client's error says what happened in the words of every request.
        sink.fail(
          failure.code === 'network' && answered
            ? new TaskwireError(
                'network',
                'The stream broke before the task ended and the service sent no task id, so the outcome is unknown.',
                { cause: failure },
              )
            : failure,
        );
      }
    };
    void read();
  };
}
