/**
 * A stream over budget (docs/protocol.md, "The stream budget"): the task is started at once with
 * Submit and followed with Get Result, and each record is turned into the events a stream would have
 * sent: progress, partial results, custom events (as Get Result's references `{ type, eventId }`,
 * without their payload) and the final `task.completed` or `task.failed`. It holds no connection
 * between polls, so the page's other requests keep theirs.
 *
 * The schedule is the client's own small one (the state layer's polling policy lives above the
 * client): the floor of one second between polls (docs/protocol.md, "Get Result"), a quarter of the
 * time left up to ten seconds, the service's `Retry-After` as a lower bound (at most five minutes),
 * and on a retryable failure an exponential backoff up to 30 s.
 */
import { TaskwireError } from '../errors.js';
import { canonicalJson } from '../../protocol/canonical-json.js';
import { randomUuid } from '../../protocol/random-uuid.js';
import {
  isTerminalStatus,
  type EventReference,
  type Progress,
  type TaskStatus,
} from '../../protocol/records.js';
import type { Usage } from '../../protocol/usage.js';
import type { StreamEvent } from '../../protocol/stream-events.js';
import type { GetResultOptions, SubmitOptions } from '../types.js';

/** The shortest delay between two polls, as every poll of the package: 1 s. */
export const FOLLOW_MIN_INTERVAL_MS = 1000;
/** The longest delay between two polls while the task runs: 10 s. */
export const FOLLOW_MAX_INTERVAL_MS = 10_000;
/** The longest backoff after failed requests: 30 s. */
export const FOLLOW_MAX_BACKOFF_MS = 30_000;
/** The most a service's `Retry-After` may delay the next poll: 5 minutes. */
export const FOLLOW_MAX_RETRY_AFTER_MS = 5 * 60 * 1000;

/** What a follow reads of a task record (docs/protocol.md, "Records"), validated by the client. */
export interface FollowedRecord {
  /** The task's status. */
  status: TaskStatus;
  /** The latest partial result, the final result, the failure, or `null`. */
  result: unknown;
  /** The task's progress. */
  progress: Progress;
  /** The task's custom events, by reference. */
  events: EventReference[];
  /** What the task charged, once it charged. */
  usage?: Usage | undefined;
}

/** What {@link followByPolling} needs from its client. */
export interface FollowSetup {
  /** Sends Submit with this idempotency key (the same on every try, so the task starts once). */
  submit(idempotencyKey: string, signal: AbortSignal): Promise<{ id: string }>;
  /** Reads the task's record, telling `onRetryAfter` the service's hint in milliseconds. */
  getResult(
    taskId: string,
    signal: AbortSignal,
    onRetryAfter: (retryAfterMs: number | undefined) => void,
  ): Promise<FollowedRecord>;
  /** A fresh idempotency key. */
  newKey(): string;
  /**
   * How long the follow may read nothing (failed requests retried meanwhile) before it counts as
   * broken, as a silent stream does: the client's `streamIdleTimeoutMs`.
   */
  idleTimeoutMs: number;
  /** Ends the follow: aborts the request or the wait in progress. */
  signal: AbortSignal;
  /** Called once Submit has answered, with the task id. */
  onTaskId(taskId: string): void;
  /** Source of randomness for the backoff's jitter. Defaults to `Math.random`. */
  random?: () => number;
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The service's hint made safe: at most five minutes, never negative. */
function boundedHint(ms: number | undefined): number {
  return ms === undefined || !(ms > 0) ? 0 : Math.min(ms, FOLLOW_MAX_RETRY_AFTER_MS);
}

/**
 * The delay before the next poll of a running task: a quarter of its time left, from the floor to the
 * ceiling, and no sooner than the service's `Retry-After`.
 */
export function nextFollowDelay(record: FollowedRecord, retryAfterMs: number | undefined): number {
  const quarter = (record.progress.estimatedSecondsLeft * 1000) / 4;
  const delay = Math.max(Math.min(FOLLOW_MAX_INTERVAL_MS, quarter), boundedHint(retryAfterMs));
  return Math.max(FOLLOW_MIN_INTERVAL_MS, Math.round(delay));
}

/** The wait after `failures` failed requests in a row: exponential, half of it random, `Retry-After` respected. */
export function followBackoff(
  failures: number,
  error: TaskwireError,
  random: () => number,
): number {
  const ceiling = Math.min(FOLLOW_MAX_BACKOFF_MS, FOLLOW_MIN_INTERVAL_MS * 2 ** failures);
  const delay = ceiling / 2 + random() * (ceiling / 2);
  return Math.round(Math.max(delay, boundedHint(error.retryAfterMs)));
}

/** Turns successive records of one task into the stream events they stand for, each told once. */
export function createRecordEvents() {
  const seen = new Set<string>();
  // A record's progress before the task reported any is 0 % and 0 s left: no event, as on a stream.
  let progress = '0/0';
  let partial: string | undefined;
  return (record: FollowedRecord): StreamEvent<unknown>[] => {
    const events: StreamEvent<unknown>[] = [];
    for (const reference of record.events) {
      if (seen.has(reference.id)) continue;
      seen.add(reference.id);
      // Get Result lists custom events by reference only: the payload a stream carries is not there.
      events.push({ type: reference.type as `event.${string}`, eventId: reference.id });
    }
    if (record.status !== 'ACCEPTED') {
      const { percent, estimatedSecondsLeft } = record.progress;
      const key = `${percent}/${estimatedSecondsLeft}`;
      if (key !== progress) {
        progress = key;
        events.push({ type: 'task.progress', percent, estimatedSecondsLeft });
      }
    }
    if (record.status === 'IN_PROGRESS' && record.result !== null) {
      const key = canonicalJson(record.result);
      if (key !== partial) {
        partial = key;
        events.push({ type: 'task.partial-result', result: record.result as never });
      }
    }
    if (record.status === 'COMPLETED') {
      events.push(
        record.usage === undefined
          ? { type: 'task.completed', result: record.result }
          : { type: 'task.completed', result: record.result, usage: record.usage },
      );
    } else if (record.status === 'FAILED') {
      // As on a stream, `task.failed` carries no usage (docs/protocol.md, "Streams").
      events.push({ type: 'task.failed', result: record.result });
    }
    return events;
  };
}

/**
 * Whether a Submit may have started a task whose answer never came: a connection that broke after
 * the request went out, or the client's own deadline (docs/protocol.md, "The client").
 */
function isLostAnswer(error: unknown): boolean {
  if (!TaskwireError.isInstance(error)) return false;
  return (
    error.code === 'timeout' || (error.code === 'network' && error.reason !== 'CONNECT_FAILED')
  );
}

/**
 * Starts a task with Submit and follows it with Get Result, yielding the events its stream would
 * have sent, the final one last. A Submit whose answer was lost is sent again with the same
 * idempotency key, and a Get Result that failed in a way that may heal (`retryable`) is read again,
 * each after a backoff, until nothing has been read for `idleTimeoutMs`: then the follow ends as a
 * broken stream does, with `network` and the task id, or with Submit's own error when no task id
 * came. Any other failure ends it at once.
 */
export async function* followByPolling(
  setup: FollowSetup,
): AsyncGenerator<StreamEvent<unknown>, void, undefined> {
  const { signal, idleTimeoutMs } = setup;
  const random = setup.random ?? Math.random;
  let lastRead = Date.now();
  let failures = 0;
  let taskId: string | undefined;

  /** Waits before trying again after `error`, or throws when the follow must give up. */
  const backOff = async (error: unknown): Promise<void> => {
    if (signal.aborted || !TaskwireError.isInstance(error) || !error.retryable) throw error;
    failures++;
    const delay = followBackoff(failures, error, random);
    if (Date.now() + delay - lastRead > idleTimeoutMs) {
      if (taskId === undefined) throw error;
      throw new TaskwireError(
        'network',
        `The task was followed with Get Result, which answered nothing for ${idleTimeoutMs} ms.`,
        { taskId, cause: error },
      );
    }
    await wait(delay, signal);
  };

  const idempotencyKey = setup.newKey();
  while (taskId === undefined) {
    try {
      taskId = (await setup.submit(idempotencyKey, signal)).id;
    } catch (error) {
      // Only a lost answer is asked again (the key makes it the same task); any other refusal ends
      // the follow at once, as it would end a stream's POST (nothing was sent, or nothing started).
      if (!isLostAnswer(error)) throw error;
      await backOff(error);
    }
  }
  lastRead = Date.now();
  failures = 0;
  setup.onTaskId(taskId);

  const eventsOf = createRecordEvents();
  for (;;) {
    let record: FollowedRecord;
    let retryAfterMs: number | undefined;
    try {
      record = await setup.getResult(taskId, signal, (ms) => (retryAfterMs = ms));
    } catch (error) {
      await backOff(error);
      continue;
    }
    lastRead = Date.now();
    failures = 0;
    yield* eventsOf(record);
    if (isTerminalStatus(record.status)) return;
    await wait(nextFollowDelay(record, retryAfterMs), signal);
  }
}

/** The two calls of a client that a follow makes. */
export interface FollowClient {
  /** The client's Submit. */
  submit(task: string, params: unknown, options: SubmitOptions): Promise<{ id: string }>;
  /** The client's Get Result. */
  getResult(task: string, id: string, options: GetResultOptions): Promise<FollowedRecord>;
}

/**
 * The follow of one stream call over budget, through `client`'s own Submit and Get Result (so their
 * checks, deadlines, retry after a 401 and activity feed apply): a function of the follow's signal
 * and the callback told the task id, as `BudgetedTaskStream` asks for.
 */
export function followWith<Event>(
  client: FollowClient,
  task: string,
  params: unknown,
  idleTimeoutMs: number,
): (signal: AbortSignal, onTaskId: (taskId: string) => void) => AsyncIterator<Event> {
  return (signal, onTaskId) =>
    followByPolling({
      submit: (idempotencyKey, signal) => client.submit(task, params, { idempotencyKey, signal }),
      getResult: (taskId, signal, onRetryAfter) =>
        client.getResult(task, taskId, { signal, onRetryAfter }),
      newKey: randomUuid,
      idleTimeoutMs,
      signal,
      onTaskId,
    }) as AsyncIterator<Event>;
}
