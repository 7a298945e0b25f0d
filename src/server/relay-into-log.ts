/**
 * The proxy's relay of a stream into its event log (docs/protocol.md, "Resumable streams (0.4)"):
 * the service's stream is read to its end, whether or not a page reads it, and each message is
 * appended to the task's log, where the page (this one, or one that comes back) reads it with its
 * position. A custom event's uuid goes into its message as `eventId` (from its `id:` line, unless
 * the service is itself resumable and put it there). The relay is bounded by the service's silence
 * (`idleTimeoutMs`, keep-alives counting); a stream that ends, breaks or goes silent before its final
 * message leaves its log abandoned, so that its reads end and the page reads Get Result.
 */
import type { EventLog, EventLogKey } from '../events/event-log.js';
import { createEventStreamReader } from '../protocol/event-stream-reader.js';
import { isFinalEvent } from '../protocol/stream-events.js';

/** What the relay reads, and where it writes. */
export interface LogRelay {
  /** The log, with the task's log already created. */
  log: EventLog;
  /** The task. */
  key: EventLogKey;
  /** The service's stream body. */
  body: ReadableStream<Uint8Array>;
  /** Whether the service said its stream is resumable: then its `id:` lines are its positions. */
  upstreamResumable: boolean;
  /** The longest silence of the service, keep-alives counting, before the relay gives up. */
  idleTimeoutMs: number;
  /** Aborts the service's request (the relay gave up, or the proxy is done with it). */
  abortUpstream(): void;
}

/** The message to log: the service's data, with a custom event's uuid written in as `eventId`. */
function loggedMessage(
  data: string,
  id: string | undefined,
  upstreamResumable: boolean,
): { message: string; final: boolean } {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    // Logged as it came: the page's reader refuses it, as it would the service's own stream.
    return { message: data, final: false };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { message: data, final: false };
  }
  const event = value as { type?: unknown; eventId?: unknown };
  const final = typeof event.type === 'string' && isFinalEvent(event as { type: string });
  if (
    !upstreamResumable &&
    typeof event.type === 'string' &&
    event.type.startsWith('event.') &&
    id !== undefined &&
    id !== ''
  ) {
    return { message: JSON.stringify({ ...event, eventId: id }), final };
  }
  return { message: data, final };
}

/**
 * Reads the service's stream into the log until its final message; resolves when the relay is
 * over, whatever its outcome (it never rejects: a failure abandons the log).
 */
export async function relayIntoLog(relay: LogRelay): Promise<void> {
  const { log, key, idleTimeoutMs } = relay;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(relay.abortUpstream, idleTimeoutMs);
  };
  const reader = createEventStreamReader(relay.body, { onChunk: arm });
  try {
    for (;;) {
      arm();
      const messages = await reader.read();
      if (messages === undefined) break;
      // A chunk's messages are appended together: sent in order on one connection they keep their
      // order, and a store across the network (Redis) takes them in one round trip, not one each.
      const appended: Array<Promise<string>> = [];
      let ended = false;
      for (const { data, id } of messages) {
        const { message, final } = loggedMessage(data, id, relay.upstreamResumable);
        appended.push(log.append(key, message, final));
        if (final) {
          ended = true;
          break;
        }
      }
      await Promise.all(appended);
      if (ended) return;
    }
    await log.abandon(key);
  } catch {
    await log.abandon(key).catch(() => undefined);
  } finally {
    clearTimeout(timer);
    relay.abortUpstream();
    await reader.cancel();
  }
}
