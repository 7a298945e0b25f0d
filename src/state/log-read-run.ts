/**
 * The run of a task read from its log (docs/protocol.md, "Resumable streams (0.4)"):
 * the task's messages after a position, with their payloads, through the page's one read of its
 * tasks' logs (src/state/event-feed.ts). It takes up a stream that broke after the last position
 * the page had, a task after a reload or `attach` from its first message, and a stream started with
 * a short request. Where the log cannot be read (no such read, the log gone or past its limits, the
 * read failing again and again, or the read's module not loaded), it hands over to the watch of
 * the task's record, as in 0.3.
 */
import type { StreamEvent } from '../protocol/stream-events.js';
import type { EventFeed } from './event-feed.js';
import type { TaskRun } from './task-run.js';

/** Settings of a {@link logReadRun}. */
export interface LogReadRunOptions<Result, Event> {
  /**
   * The page's one read of its tasks' logs, loaded on demand: `undefined` when it could not be,
   * and the run hands over to `fallback`.
   */
  feed: () => Promise<EventFeed | undefined>;
  /** The task name. */
  task: string;
  /** The task id. */
  taskId: string;
  /** The position of the last message the page has, or `null` to read from the first. */
  after: string | null;
  /**
   * Whether the run opens the state (`streaming`, and the page told the task id) at its first
   * message: for a task taken up or attached, not for a stream already open.
   */
  opens: boolean;
  /** The run that follows the task when its log cannot be read: the watch of its record. */
  fallback: (taskId: string) => TaskRun<Result, Event>;
}

/** A {@link TaskRun} that follows a task's log through the page's feed. */
export function logReadRun<Result, Event>({
  feed,
  task,
  taskId,
  after,
  opens,
  fallback,
}: LogReadRunOptions<Result, Event>): TaskRun<Result, Event> {
  return (sink, signal) => {
    let opened = !opens;
    void feed().then((loaded) => {
      if (signal.aborted) return;
      if (loaded === undefined) return sink.handOver(fallback(taskId));
      const stopFollowing = loaded.follow({ task, id: taskId }, after, {
        message(_position, message) {
          if (signal.aborted) return;
          if (!opened) {
            opened = true;
            sink.open(taskId);
          }
          sink.event(message as StreamEvent<Result> | Event);
        },
        unavailable() {
          if (!signal.aborted) sink.handOver(fallback(taskId));
        },
      });
      signal.addEventListener('abort', stopFollowing, { once: true });
    });
  };
}
