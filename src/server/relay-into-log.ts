/**
 * The proxy's relay of a stream into its event log (docs/protocol.md, "Resumable streams (0.4)"):
 * the service's stream is read to its end, whether or not a page reads it, and each message is
 * appended to the task's log, where the page (this one, or one that comes back) reads it with its
 * position. A custom event's uuid goes into its message as `eventId` (from its `id:` line, unless
 * the service is itself resumable and put it there). The relay is bounded by the service's silence
 * (`idleTimeoutMs`, keep-alives counting); a stream that ends, breaks or goes silent before its final
 * message leaves its log abandoned, so that its reads end and the page reads Get Result. While it
 * runs it keeps its log alive (`EventLog.keepAlive`), so that a relay whose server went away without
 * a word (a crash, a deploy) leaves a log that the other servers sharing it abandon in time.
 */
import type { EventLog, EventLogEntry, EventLogKey } from '../events/event-log.js';
import { createEventStreamReader } from '../protocol/event-stream-reader.js';
import { isFinalEvent } from '../protocol/stream-events.js';

/** Who hears from the relay as it goes: the page whose request started the stream. */
export interface RelayWatcher {
  /** Messages the log took, in order, with the positions it gave them. */
  appended(entries: readonly EventLogEntry[]): void;
  /** The relay is over: after the final message (`true`), or broken before it (`false`). */
  ended(final: boolean): void;
}

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
  /** Told what the log took, and the relay's end; none when no page waits (a short start). */
  watcher?: RelayWatcher | undefined;
}

/** A message of the service's stream as the log keeps it. */
interface LoggedMessage {
  /** Its JSON text. */
  message: string;
  /** Whether it is the task's final message. */
  final: boolean;
}

/**
 * Matches the text of a message that may be final or a custom event: both need their `type` written
 * out, which takes these words unless the text holds escapes. One scan of each message's text.
 */
const MAY_BE_FINAL_OR_CUSTOM = /"task\.(?:completed|failed)"|"event\.|\\/;

/** The message to log: the service's data, with a custom event's uuid written in as `eventId`. */
function loggedMessage(
  data: string,
  id: string | undefined,
  upstreamResumable: boolean,
): LoggedMessage {
  // A message that is neither final nor a custom event is logged as it came, unread.
  if (!MAY_BE_FINAL_OR_CUSTOM.test(data)) return { message: data, final: false };
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
 * The most characters of messages read from the service and not yet appended: past it the relay
 * reads no more until the log took them, so a slow store slows the relay rather than filling memory.
 */
const MAX_UNAPPENDED_CHARS = 1024 * 1024;

/** The most batches sent to the log and not yet taken: enough to keep a store across the network busy. */
const MAX_BATCHES_IN_FLIGHT = 4;

/**
 * The shortest lease a relay takes on its log: it is renewed three times within it, so that a busy
 * event loop never lets the lease of a live relay run out.
 */
const MIN_LEASE_MS = 5_000;

/**
 * Reads the service's stream into the log until its final message; resolves when the relay is
 * over, whatever its outcome (it never rejects: a failure abandons the log).
 */
export async function relayIntoLog(relay: LogRelay): Promise<void> {
  const { log, key, idleTimeoutMs } = relay;
  // A server that went away is given up as a silent service is: after the longest silence allowed.
  const leaseMs = Math.max(idleTimeoutMs, MIN_LEASE_MS);
  const keepAlive = () => void log.keepAlive(key, leaseMs).catch(() => undefined);
  keepAlive();
  const heartbeat = setInterval(keepAlive, leaseMs / 3);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(relay.abortUpstream, idleTimeoutMs);
  };
  const reader = createEventStreamReader(relay.body, { onChunk: arm });
  /** Read from the service and not yet appended, in order. */
  let unappended: LoggedMessage[] = [];
  let unappendedChars = 0;
  /** Set once nothing more is read: the final message came, the body ended or failed, or the relay is over. */
  let readingOver = false;
  let wakeAppender: (() => void) | undefined;
  let wakeReader: (() => void) | undefined;

  // The service's stream is read on while the log takes what was read before, and the next append
  // takes all that came meanwhile: one round trip of the store per batch, however many messages.
  const readStream = async () => {
    try {
      while (!readingOver) {
        if (unappendedChars > MAX_UNAPPENDED_CHARS) {
          // Waiting for the store is not the service's silence.
          clearTimeout(timer);
          await new Promise<void>((resolve) => (wakeReader = resolve));
          continue;
        }
        arm();
        const messages = await reader.read();
        if (messages === undefined) break;
        for (const { data, id } of messages) {
          const entry = loggedMessage(data, id, relay.upstreamResumable);
          unappended.push(entry);
          unappendedChars += entry.message.length;
          if (entry.final) {
            readingOver = true;
            break;
          }
        }
        wakeAppender?.();
      }
    } catch {
      // A body that failed ends the relay as one that ended early: its log is abandoned.
    }
    readingOver = true;
    wakeAppender?.();
  };

  let final = false;
  /** The batches sent to the log and not yet taken, oldest first. */
  const sending: Array<Promise<void>> = [];
  /** Settles once every batch sent so far was taken and handed to the watcher, in order. */
  let handed: Promise<void> = Promise.resolve();
  let failed = false;
  void readStream();
  try {
    for (;;) {
      if (failed) await handed;
      if (sending.length >= MAX_BATCHES_IN_FLIGHT) {
        await sending.shift();
        continue;
      }
      if (unappended.length === 0) {
        if (readingOver) break;
        await new Promise<void>((resolve) => (wakeAppender = resolve));
        wakeAppender = undefined;
        continue;
      }
      const batch = unappended;
      unappended = [];
      unappendedChars = 0;
      wakeReader?.();
      // Appended together: a store across the network (Redis) takes them in one round trip, not
      // one each. The next batch goes before this one is taken, so the store's time and the
      // relay's overlap; a batch after a refused one is refused too (EventLog.append).
      const appended = log.append(
        key,
        batch.map((entry) => entry.message),
        batch.at(-1)?.final === true,
      );
      const previous = handed;
      handed = (async () => {
        await previous;
        const positions = await appended;
        relay.watcher?.appended(
          batch.map(({ message, final }, index) => ({
            position: positions[index] as string,
            message,
            final,
          })),
        );
      })();
      // Each failure is read in order, through `handed`; this only wakes the loop to it.
      appended.catch(() => undefined);
      handed.catch(() => {
        failed = true;
        wakeAppender?.();
      });
      sending.push(handed);
      if (batch.at(-1)?.final === true) {
        await handed;
        final = true;
        return;
      }
    }
    await handed;
    await log.abandon(key);
  } catch {
    await log.abandon(key).catch(() => undefined);
  } finally {
    readingOver = true;
    wakeReader?.();
    clearTimeout(timer);
    clearInterval(heartbeat);
    relay.abortUpstream();
    relay.watcher?.ended(final);
    await reader.cancel();
  }
}
