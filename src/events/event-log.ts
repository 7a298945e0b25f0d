/**
 * The durable log of a task's stream messages (docs/protocol.md, "Resumable streams (0.4)"): what a
 * service that offers resumable streams keeps of each task, so that a page can read the messages
 * again after any position. One interface, two stores: `memoryEventLog` (one process) and
 * `redisEventLog` (app servers behind a load balancer). The reference service and the proxy write
 * into it and serve both reads from it; neither knows which store it has.
 */

/** Which task a log belongs to. */
export interface EventLogKey {
  /** The task name. */
  taskName: string;
  /** The task id. */
  taskId: string;
}

/** One message of a log, as a read hands it out. */
export interface EventLogEntry {
  /** Its position: an opaque string, ordered lexicographically among the task's positions. */
  position: string;
  /** The message's JSON text, as it was appended. */
  message: string;
  /** Whether it is the task's final message (`task.completed` or `task.failed`). */
  final: boolean;
}

/**
 * What a read found: the entries after the position asked for, in batches as the store has them at
 * hand (catch-up, then live ones as they are appended, ending after the final one; each batch holds
 * at least one entry, and the batches follow each other in order), so that a reader writes a batch
 * at once rather than one entry after the other; `ended` when the log has ended and holds nothing
 * after that position (the reader already has the final message); or why there are none to read.
 */
export type EventLogRead =
  | { status: 'ok'; batches: AsyncIterable<readonly EventLogEntry[]> }
  | { status: 'ended' }
  | { status: 'not-found' }
  | { status: 'expired' };

/** The bounds of a log store; every store takes the same ones. */
export interface EventLogLimits {
  /**
   * How long a task's log is kept after its final message, in milliseconds; past it a read is
   * `expired`. Defaults to `600000` (10 min).
   */
  retentionMs?: number;
  /**
   * The most bytes of messages kept per task (UTF-8); past it the oldest messages go (never the
   * newest), and a read that needs them is `expired`. Defaults to `1048576` (1 MiB).
   */
  maxLogBytes?: number;
  /**
   * The most task logs a store holds; past it the logs whose tasks ended first go, then (when every
   * task still runs) the oldest, and their reads are `expired`. Defaults to `10000`.
   */
  maxTasks?: number;
}

/**
 * A store of task logs (docs/protocol.md, "Resumable streams (0.4)"). `owner` is an opaque id of the
 * user (never a raw token): only the owner of a log reads it, and anyone else is told `not-found`,
 * exactly as for a task that has no log.
 */
export interface EventLog {
  /**
   * Starts the log of a task for `owner`. Resolves to `true` when it was created, `false` when this
   * owner's log of that task already exists (a repeated start); rejects when another owner has it.
   */
  create(key: EventLogKey, owner: string): Promise<boolean>;
  /**
   * Appends `messages` (their JSON texts, a chunk of a relayed stream) in order, all or none, and
   * resolves to their positions; `final` says the last of them is the task's final message, which
   * ends the log (its retention starts). Rejects, appending none, when the log does not exist, has
   * ended, or the store failed; an append made after one that was refused is refused too, so a
   * log has no gap. No messages append nothing.
   */
  append(key: EventLogKey, messages: readonly string[], final: boolean): Promise<string[]>;
  /**
   * Says the writer of a running log is alive, for `forMs` from now: a writer that may go away
   * without a word (a server that relays the stream and can crash or be redeployed) calls it again
   * before then, as long as it writes. Once a log was kept alive, a lease that ran out with no final
   * message abandons it (see {@link EventLog.abandon}), so that its reads end and the page follows
   * the task with Get Result instead of waiting for a writer that is gone; a writer that comes back
   * late is refused. A log never kept alive waits for its writer as long as it runs. Does nothing
   * to a log that ended or does not exist.
   */
  keepAlive(key: EventLogKey, forMs: number): Promise<void>;
  /**
   * Ends a log whose stream broke before its final message (the relay lost the service): its reads
   * deliver what it holds, then end `expired`, so that a page reads the outcome with Get Result;
   * its retention starts as at a final message. Does nothing to a log that ended or does not exist.
   */
  abandon(key: EventLogKey): Promise<void>;
  /**
   * Reads `owner`'s log of a task after `after` (from the first message when `undefined`): the
   * entries already kept, then the live ones, in batches, ending after the final one or when
   * `signal` aborts. The iteration throws an {@link EventLogError} when the entries it needs are
   * dropped while it reads (`expired`) or the store fails (`unavailable`).
   */
  read(
    key: EventLogKey,
    owner: string,
    after: string | undefined,
    signal: AbortSignal,
  ): Promise<EventLogRead>;
  /** Ends every read and releases what the store holds (a store given a client leaves it open). */
  close(): Promise<void>;
}

/** Why a log could not be read: its entries are gone, or the store could not be reached. */
export type EventLogErrorKind = 'expired' | 'unavailable';

/** Thrown by a read's iteration when it cannot go on (see {@link EventLog.read}). */
export class EventLogError extends Error {
  override readonly name = 'EventLogError';

  constructor(
    /** Why the read cannot go on. */
    readonly kind: EventLogErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The default of {@link EventLogLimits.retentionMs}: 10 minutes. */
export const DEFAULT_EVENT_RETENTION_MS = 10 * 60 * 1000;
/** The default of {@link EventLogLimits.maxLogBytes}: 1 MiB. */
export const DEFAULT_MAX_LOG_BYTES = 1024 * 1024;
/** The default of {@link EventLogLimits.maxTasks}. */
export const DEFAULT_MAX_LOG_TASKS = 10_000;

/** The limits with their defaults applied; throws a `RangeError` for one that is not positive. */
export function eventLogLimits(limits: EventLogLimits = {}): Required<EventLogLimits> {
  const checked = {
    retentionMs: limits.retentionMs ?? DEFAULT_EVENT_RETENTION_MS,
    maxLogBytes: limits.maxLogBytes ?? DEFAULT_MAX_LOG_BYTES,
    maxTasks: limits.maxTasks ?? DEFAULT_MAX_LOG_TASKS,
  };
  for (const [name, value] of Object.entries(checked)) {
    if (!(Number.isFinite(value) && value > 0)) {
      throw new RangeError(`The event log's ${name} must be a positive number.`);
    }
  }
  if (!Number.isInteger(checked.maxTasks)) {
    throw new RangeError("The event log's maxTasks must be a whole number.");
  }
  return checked;
}

/** Matches a text of ASCII characters only, whose UTF-8 length is its length. */
const ASCII_ONLY = /^[\0-\x7f]*$/;

/** The UTF-8 length of `text` in bytes, counted without encoding it. */
export function utf8Length(text: string): number {
  // Most messages are ASCII JSON: a native scan is several times faster than the loop below (and
  // anchored, as here, it took 0.8 ms for 10,000 progress messages where a search for a character
  // outside ASCII took 1.4).
  if (ASCII_ONLY.test(text)) return text.length;
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      // A surrogate pair is one code point of four bytes.
      bytes += 4;
      index++;
    } else bytes += 3;
  }
  return bytes;
}
