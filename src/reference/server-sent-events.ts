/**
 * The Stream endpoint's body (docs/protocol.md, "Streams"): one `data:` JSON object per message, an
 * `id:` line for custom events, a `: keep-alive` comment during silences, closed right after the
 * final event.
 *
 * The stream never slows the task. Messages are queued on the stream as they happen; a client that
 * stops reading lets the queue grow up to `bufferBytes`, and past it the stream is ended with an
 * error (the connection drops) while the task goes on and stays readable with Get Result. A client
 * that leaves (its request's signal aborts, or it cancels the body) only unsubscribes.
 */
import { isFinalEvent } from '../protocol/stream-events.js';
import { formatServerSentEvent, KEEP_ALIVE_COMMENT } from '../events/format-server-sent-event.js';
import type { TaskRun } from './task-run.js';
import type { TimerRegistry } from './timer-registry.js';

/** How far the queue may grow before the stream counts as stalled: its high-water mark. */
const HIGH_WATER_MARK_BYTES = 64 * 1024;

/** How the stream of one run behaves. */
export interface TaskEventStreamOptions {
  /** The longest silence before a keep-alive comment, in milliseconds. */
  keepAliveMs: number;
  /** The most bytes queued for a client that does not read before the stream is dropped. */
  bufferBytes: number;
  /** Where the keep-alive timer is registered. */
  timers: TimerRegistry;
  /** The request's signal: when it aborts, the client is gone. */
  signal: AbortSignal;
}

/**
 * The SSE body of `run`. Subscribe happens here, synchronously, so create the stream before
 * starting the run and no event is missed.
 */
export function createTaskEventStream(
  run: TaskRun,
  options: TaskEventStreamOptions,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let end: (error?: Error) => void = () => undefined;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        let ended = false;
        let wroteSinceTick = false;
        const write = (text: string) => {
          controller.enqueue(encoder.encode(text));
          wroteSinceTick = true;
          const queued = HIGH_WATER_MARK_BYTES - (controller.desiredSize ?? 0);
          if (queued > options.bufferBytes) {
            end(new Error('The client reads the stream too slowly; it was dropped.'));
          }
        };
        const unsubscribe = run.subscribe((message) => {
          if (ended) return;
          write(formatServerSentEvent(JSON.stringify(message.event), message.id));
          if (isFinalEvent(message.event as { type: string })) end();
        });
        // Ticking at half the allowed silence and writing when a whole tick passed silently keeps
        // every silence within `keepAliveMs`, with one timer per stream instead of one per message.
        // The comment counts as a write, so pure silence gets one comment per `keepAliveMs`.
        const interval = options.timers.setInterval(
          () => {
            if (ended) return;
            if (wroteSinceTick) wroteSinceTick = false;
            else write(KEEP_ALIVE_COMMENT);
          },
          Math.max(1, options.keepAliveMs / 2),
        );
        const onAbort = () => end(new Error('The client went away.'));
        end = (error?: Error) => {
          if (ended) return;
          ended = true;
          unsubscribe();
          options.timers.clear(interval);
          options.signal.removeEventListener('abort', onAbort);
          try {
            if (error) controller.error(error);
            else controller.close();
          } catch {
            // Already cancelled by the client: nothing is left to close.
          }
        };
        if (options.signal.aborted) onAbort();
        else options.signal.addEventListener('abort', onAbort, { once: true });
      },
      cancel() {
        end();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: HIGH_WATER_MARK_BYTES }),
  );
}
