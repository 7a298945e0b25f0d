/**
 * `memoryEventLog`: the task logs of one server process, in memory (docs/protocol.md, "Resumable
 * streams (0.4)"). Bounded three ways: each log holds at most `maxLogBytes` of messages (the oldest
 * go first), an ended log is kept `retentionMs`, and the store holds at most `maxTasks` logs (those
 * that ended first go first). A log that went leaves a small marker, so that its owner is told
 * `expired` rather than `not-found`; the markers are capped at `maxTasks` too. Retention is computed
 * from the clock when the store is used, so the store needs no timer.
 */
import {
  EventLogError,
  eventLogLimits,
  utf8Length,
  type EventLog,
  type EventLogEntry,
  type EventLogKey,
  type EventLogLimits,
  type EventLogRead,
} from './event-log.js';
import { formatPosition, parsePosition } from './log-position.js';

/** A kept message; its position is written from its sequence number when it is read. */
interface HeldEntry {
  sequence: number;
  message: string;
  final: boolean;
  bytes: number;
}

interface TaskLog {
  owner: string;
  /** The entries kept, oldest first; sequence numbers run on from the first one's. */
  entries: HeldEntry[];
  /** The sequence number of the next message appended. */
  nextSequence: number;
  bytes: number;
  /** When the final message was appended, or the log abandoned (`Date.now()`), once it was. */
  endedAt: number | undefined;
  /** Set when the log was abandoned before its final message: reads end `expired` at its end. */
  abandoned: boolean;
  /** Until when its writer said it is alive (`Date.now()`), once it did (`keepAlive`). */
  aliveUntil: number | undefined;
  /** Set when the log went while reads were open: they wake and end `expired`. */
  dropped: boolean;
  /** The reads waiting for the next message. */
  wakers: Set<() => void>;
}

/** The most entries, and about the most characters of messages, a read hands out at once. */
const BATCH_ENTRIES = 256;
const BATCH_CHARS = 64 * 1024;

/** A log that went, so that its owner is told `expired`. */
interface DroppedMarker {
  owner: string;
}

/** The key of a task in the maps: the name and the id cannot hold NUL, so this is unambiguous. */
function keyOf({ taskName, taskId }: EventLogKey): string {
  return `${taskName}\0${taskId}`;
}

/**
 * Creates an in-memory {@link EventLog} for one server process, within `limits` (docs/protocol.md,
 * "Resumable streams (0.4)"). Throws a `RangeError` for a limit that is not positive.
 */
export function memoryEventLog(limits?: EventLogLimits): EventLog {
  const { retentionMs, maxLogBytes, maxTasks } = eventLogLimits(limits);
  // Maps keep insertion order: `logs` is creation order, `ended` is ending order (retention's and
  // the cap's order), `markers` is the order logs went (the order markers are forgotten).
  const logs = new Map<string, TaskLog>();
  const ended = new Map<string, TaskLog>();
  const markers = new Map<string, DroppedMarker>();
  let closed = false;

  function checkOpen(): void {
    if (closed) throw new Error('The event log is closed.');
  }

  function wake(log: TaskLog): void {
    const wakers = [...log.wakers];
    log.wakers.clear();
    for (const waker of wakers) waker();
  }

  /** Drops a log, leaving its marker; its open reads wake and end `expired`. */
  function drop(key: string, log: TaskLog): void {
    logs.delete(key);
    ended.delete(key);
    log.dropped = true;
    log.entries = [];
    wake(log);
    markers.set(key, { owner: log.owner });
    for (const oldest of markers.keys()) {
      if (markers.size <= maxTasks) break;
      markers.delete(oldest);
    }
  }

  /** Drops the ended logs past their retention (the first ones to end come first). */
  function sweep(): void {
    const now = Date.now();
    for (const [key, log] of ended) {
      if ((log.endedAt ?? now) + retentionMs > now) break;
      drop(key, log);
    }
  }

  /** Makes room for one more log: the first to end go first, else the oldest still running. */
  function makeRoom(): void {
    while (logs.size >= maxTasks) {
      const [key, log] = ended.entries().next().value ?? logs.entries().next().value ?? [];
      if (key === undefined || log === undefined) return;
      drop(key, log);
    }
  }

  /** Ends a running log without its final message: its reads end `expired` after what it holds. */
  function abandonLog(name: string, log: TaskLog): void {
    log.abandoned = true;
    log.endedAt = Date.now();
    ended.set(name, log);
    wake(log);
  }

  /** Abandons a running log whose writer's lease ran out (`keepAlive`). */
  function checkLease(name: string, log: TaskLog): void {
    if (log.endedAt === undefined && log.aliveUntil !== undefined && Date.now() >= log.aliveUntil) {
      abandonLog(name, log);
    }
  }

  /** The entries after `after`, as many as are kept at once (at most a batch's worth), then live. */
  async function* batchesOf(
    name: string,
    log: TaskLog,
    after: number,
    signal: AbortSignal,
  ): AsyncGenerator<EventLogEntry[]> {
    let cursor = after;
    for (;;) {
      if (signal.aborted || closed) return;
      checkLease(name, log);
      if (log.dropped) throw new EventLogError('expired', 'The log went while it was read.');
      const first = log.entries[0];
      if (first !== undefined && first.sequence > cursor + 1) {
        throw new EventLogError('expired', 'The messages after this position were dropped.');
      }
      const start = first === undefined ? 0 : cursor + 1 - first.sequence;
      if (start < log.entries.length) {
        const batch: EventLogEntry[] = [];
        let chars = 0;
        for (let index = start; index < log.entries.length; index++) {
          const held = log.entries[index] as HeldEntry;
          batch.push({
            position: formatPosition(held.sequence),
            message: held.message,
            final: held.final,
          });
          cursor = held.sequence;
          chars += held.message.length;
          if (batch.length >= BATCH_ENTRIES || chars >= BATCH_CHARS) break;
        }
        yield batch;
        if (batch.at(-1)?.final) return;
        continue;
      }
      if (log.abandoned) {
        throw new EventLogError('expired', 'The stream broke before its final message.');
      }
      if (log.endedAt !== undefined) return;
      await new Promise<void>((resolve) => {
        // A writer that keeps the log alive is waited for until its lease runs out, no longer.
        const leaseTimer =
          log.aliveUntil === undefined
            ? undefined
            : setTimeout(() => done(), Math.max(0, log.aliveUntil - Date.now()));
        const done = () => {
          clearTimeout(leaseTimer);
          signal.removeEventListener('abort', done);
          log.wakers.delete(done);
          resolve();
        };
        log.wakers.add(done);
        signal.addEventListener('abort', done, { once: true });
      });
    }
  }

  return {
    async create(key, owner) {
      checkOpen();
      sweep();
      const name = keyOf(key);
      const existing = logs.get(name);
      if (existing !== undefined) {
        if (existing.owner !== owner) throw new Error("Another owner's log has this task.");
        return false;
      }
      makeRoom();
      markers.delete(name);
      logs.set(name, {
        owner,
        entries: [],
        nextSequence: 1,
        bytes: 0,
        endedAt: undefined,
        abandoned: false,
        aliveUntil: undefined,
        dropped: false,
        wakers: new Set(),
      });
      return true;
    },

    async append(key, messages, final) {
      checkOpen();
      const name = keyOf(key);
      const log = logs.get(name);
      if (log === undefined) throw new Error('No log of this task is open.');
      checkLease(name, log);
      if (log.endedAt !== undefined) throw new Error("The task's log has ended.");
      if (messages.length === 0) return [];
      const positions: string[] = [];
      messages.forEach((message, index) => {
        const sequence = log.nextSequence++;
        const bytes = utf8Length(message);
        positions.push(formatPosition(sequence));
        log.entries.push({
          sequence,
          message,
          final: final && index === messages.length - 1,
          bytes,
        });
        log.bytes += bytes;
      });
      // The newest message always stays, so a read after the one before it still gets it.
      while (log.bytes > maxLogBytes && log.entries.length > 1) {
        log.bytes -= (log.entries.shift() as HeldEntry).bytes;
      }
      if (final) {
        log.endedAt = Date.now();
        ended.set(name, log);
      }
      wake(log);
      return positions;
    },

    async keepAlive(key, forMs) {
      checkOpen();
      const name = keyOf(key);
      const log = logs.get(name);
      if (log === undefined) return;
      checkLease(name, log);
      if (log.endedAt === undefined) log.aliveUntil = Date.now() + forMs;
    },

    async abandon(key) {
      checkOpen();
      const name = keyOf(key);
      const log = logs.get(name);
      if (log === undefined || log.endedAt !== undefined) return;
      abandonLog(name, log);
    },

    async read(key, owner, after, signal): Promise<EventLogRead> {
      checkOpen();
      sweep();
      const name = keyOf(key);
      const log = logs.get(name);
      if (log === undefined) {
        // Another user is told exactly what an unknown task gets.
        return markers.get(name)?.owner === owner ? { status: 'expired' } : { status: 'not-found' };
      }
      if (log.owner !== owner) return { status: 'not-found' };
      checkLease(name, log);
      const cursor = after === undefined ? 0 : parsePosition(after);
      if (cursor === undefined) return { status: 'not-found' };
      const first = log.entries[0];
      if (first !== undefined && first.sequence > cursor + 1) return { status: 'expired' };
      if (log.endedAt !== undefined && cursor >= log.nextSequence - 1) {
        return { status: log.abandoned ? 'expired' : 'ended' };
      }
      return { status: 'ok', batches: batchesOf(name, log, cursor, signal) };
    },

    async close() {
      closed = true;
      for (const log of logs.values()) wake(log);
      logs.clear();
      ended.clear();
      markers.clear();
    },
  };
}
