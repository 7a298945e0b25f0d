/**
 * The relay's own page (docs/protocol.md, "Resumable streams (0.4)"): the page whose request started
 * a relayed stream reads it straight from the relay, each chunk of the service's messages once the
 * log took it and with the positions the log gave, so its answer costs the store no read. A page
 * that falls further behind than the relay keeps for it reads on from the log after its last
 * position, as any other read; a page that goes away is let go, and the relay goes on.
 */
import {
  EventLogError,
  type EventLog,
  type EventLogEntry,
  type EventLogKey,
} from '../events/event-log.js';
import type { RelayWatcher } from './relay-into-log.js';

/**
 * How far the relay's page may fall behind it, in characters of messages kept for it, before it
 * reads the rest from the log instead: the most memory one slow page holds in the relay.
 */
const MAX_TAIL_CHARS = 1024 * 1024;

/** Where the page is: following the relay, behind it (reading the log), or gone. */
type TailState = 'following' | 'behind' | 'left';

/** The relay's side (what it appended, and its end) and the page's side of one relayed stream. */
export interface RelayTail extends RelayWatcher {
  /**
   * The page's entries in batches, in order, each once: what the relay appended, then (once the page
   * fell behind) a read of the log after its last position; ends after the final message, throws an
   * {@link EventLogError} when the stream broke or the log cannot be read. Opened once.
   */
  batches(signal: AbortSignal): AsyncGenerator<readonly EventLogEntry[]>;
}

/** The tail of the relay of `key` into `log`, read by the page of `owner` that started it. */
export function createRelayTail(log: EventLog, key: EventLogKey, owner: string): RelayTail {
  let state: TailState = 'following';
  /** Appended and not yet handed to the page, while it follows. */
  let kept: (readonly EventLogEntry[])[] = [];
  let keptChars = 0;
  let outcome: 'final' | 'broken' | undefined;
  /** Wakes the page waiting for the relay. */
  let wake: (() => void) | undefined;

  /** What the page reads once it fell behind: the log after its last position. */
  async function* fromLog(after: string | undefined, signal: AbortSignal) {
    const read = await log.read(key, owner, after, signal);
    if (read.status === 'ended') return;
    if (read.status !== 'ok') {
      throw new EventLogError('expired', 'The messages after this position are no longer kept.');
    }
    yield* read.batches;
  }

  return {
    appended(entries) {
      if (state !== 'following') return;
      kept.push(entries);
      for (const entry of entries) keptChars += entry.message.length;
      if (keptChars > MAX_TAIL_CHARS) {
        state = 'behind';
        kept = [];
        keptChars = 0;
      }
      wake?.();
    },

    ended(final) {
      outcome = final ? 'final' : 'broken';
      wake?.();
    },

    async *batches(signal) {
      let last: string | undefined;
      const onAbort = () => wake?.();
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        while (state === 'following') {
          if (kept.length > 0) {
            const batch = kept.length === 1 ? (kept[0] as readonly EventLogEntry[]) : kept.flat();
            kept = [];
            keptChars = 0;
            last = batch.at(-1)?.position ?? last;
            yield batch;
            continue;
          }
          if (outcome === 'final' || signal.aborted) return;
          if (outcome === 'broken') {
            throw new EventLogError('expired', 'The stream broke before its final message.');
          }
          await new Promise<void>((resolve) => (wake = resolve));
          wake = undefined;
        }
        if (state === 'behind') yield* fromLog(last, signal);
      } finally {
        signal.removeEventListener('abort', onAbort);
        state = 'left';
        kept = [];
      }
    },
  };
}
