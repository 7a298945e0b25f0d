/**
 * The reads of resumable streams (docs/protocol.md, "Resumable streams (0.4)"): `client.events()`,
 * one task's messages after a position, resuming by itself from its last position when the
 * connection drops; and the multiplexed read of several tasks over one connection, which the
 * hooks drive (not public). Both only read: no path here ever posts a task again.
 */
import { TaskwireError } from '../errors.js';
import { abortedError, raceAbort } from '../abort.js';
import { protocolError } from '../error-factories.js';
import { checkTaskId, checkTaskName } from '../call-checks.js';
import { discardBody, errorFromResponse, notTaskwireAnswer } from '../read-answer.js';
import { send, type RequestContext } from '../request.js';
import type { CallRecord } from '../activity-types.js';
import type { TaskSchema } from '../../protocol/task-schemas.js';
import { isEventStreamMediaType } from '../../protocol/media-types.js';
import { isFinalEvent } from '../../protocol/stream-events.js';
import { retryDelay } from '../../protocol/retry-after.js';
import {
  eventsPath,
  FOLLOW_PATH,
  followMessageSchema,
  positionSchema,
  type FollowedTask,
} from '../../protocol/resumable-streams.js';
import {
  createEventStreamReader,
  EventTooLargeError,
  type EventStreamReader,
} from '../../protocol/event-stream-reader.js';
import { checkStreamEvent, parseStreamData } from './stream-event.js';

/** One message of a task's events read: the event, and its position. */
export interface TaskEventsMessage<Event> {
  /** The message's position: pass it as `after` to read on from here. */
  position: string;
  /** The event, checked as a stream's events are. */
  event: Event;
}

/** How the client reads. */
export interface EventsReadSetup {
  /** The client's way of sending a request. */
  context: RequestContext;
  /** How long a read may receive no byte, keep-alives counting, before it counts as broken. */
  idleTimeoutMs: number;
  /** The cap on one event, in bytes. */
  maxEventBytes: number | undefined;
}

/** How many times in a row a read is opened again without getting a message, before it gives up. */
const RESUME_ATTEMPTS = 3;

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
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

/**
 * An open event-stream answer, read message by message with an idle watchdog: `next()` resolves to
 * the next batch of messages, `undefined` at the end, or rejects (`network` when it broke or went
 * silent, `protocol` for an event too large).
 */
class EventStreamBody {
  readonly #reader: EventStreamReader;
  readonly #idleTimeoutMs: number;
  readonly #signal: AbortSignal;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #silent = false;

  constructor(body: ReadableStream<Uint8Array>, setup: EventsReadSetup, signal: AbortSignal) {
    this.#idleTimeoutMs = setup.idleTimeoutMs;
    this.#signal = signal;
    this.#reader = createEventStreamReader(body, {
      maxEventBytes: setup.maxEventBytes,
      onChunk: this.#arm,
    });
  }

  readonly #arm = (): void => {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#silent = true;
      void this.#reader.cancel();
    }, this.#idleTimeoutMs);
  };

  async next(taskId: string | undefined): Promise<Awaited<ReturnType<EventStreamReader['read']>>> {
    this.#arm();
    let messages: Awaited<ReturnType<EventStreamReader['read']>>;
    try {
      messages = await raceAbort(this.#reader.read(), this.#signal);
    } catch (error) {
      clearTimeout(this.#timer);
      if (this.#signal.aborted) throw abortedError(this.#signal, taskId);
      if (error instanceof EventTooLargeError) {
        throw protocolError('The events read', error.message, taskId);
      }
      throw new TaskwireError('network', 'The events read broke before its final event.', {
        taskId,
        cause: error,
      });
    }
    clearTimeout(this.#timer);
    // A silent read was cancelled by the watchdog, which ends it like a body that ended.
    if (this.#silent) {
      throw new TaskwireError(
        'network',
        `The events read received nothing for ${this.#idleTimeoutMs} ms, not even a keep-alive, so it was closed.`,
        { taskId },
      );
    }
    return messages;
  }

  close(): void {
    clearTimeout(this.#timer);
    void this.#reader.cancel();
  }
}

/**
 * Opens an event-stream answer: checks its status and content type, or throws the typed error;
 * `undefined` for a 204, a read after the task's final message.
 */
async function openEventStream(
  setup: EventsReadSetup,
  request: {
    method: 'GET' | 'POST';
    path: string;
    body?: string;
    headers?: Record<string, string>;
  },
  what: string,
  call: CallRecord,
  signal: AbortSignal,
): Promise<EventStreamBody | undefined> {
  const sent = await send(setup.context, {
    ...request,
    accept: 'text/event-stream',
    signal,
    call,
  });
  const { response } = sent;
  if (!response.ok) throw await errorFromResponse(sent, signal, call.taskId);
  // 204: the task has ended and nothing comes after the position asked for.
  if (response.status === 204) {
    await discardBody(response);
    return undefined;
  }
  const contentType = response.headers.get('content-type');
  if (!isEventStreamMediaType(contentType)) {
    await discardBody(response);
    throw notTaskwireAnswer(
      what,
      `its content type is ${contentType ?? 'missing'}, not text/event-stream.`,
      sent.where,
      call.taskId,
    );
  }
  if (response.body === null) {
    throw new TaskwireError('network', `${what} has no body.`, { taskId: call.taskId });
  }
  return new EventStreamBody(response.body, setup, signal);
}

/** What `client.events()` reads. */
export interface TaskEventsReadOptions {
  /** The task name. */
  task: unknown;
  /** The task id. */
  id: unknown;
  /** The position to read after; from the first message when left out. */
  after: string | undefined;
  /** The task's schemas, when the client has them. */
  schema: TaskSchema | undefined;
  /** The caller's signal. */
  signal: AbortSignal | undefined;
}

/**
 * One task's messages after `after` (docs/protocol.md, "Resumable streams (0.4)"), each with its
 * position, ending after the final one. A connection that drops, goes silent or answers 5xx or
 * 429 is opened again after the last position read (at once after a message came, else after 1 s,
 * 2 s, 4 s or the service's `Retry-After`), at most three times in a row without a message; a
 * message at or before a position already read is dropped, never delivered twice. A 404
 * (`RESULT_NOT_FOUND`, or `NOT_FOUND` where the service has no such read) or 410
 * (`EVENTS_EXPIRED`) rejects at once with its `http` error.
 */
export async function* readTaskEvents<Event>(
  setup: EventsReadSetup,
  options: TaskEventsReadOptions,
): AsyncGenerator<TaskEventsMessage<Event>, undefined, undefined> {
  const name = checkTaskName(options.task);
  const taskId = checkTaskId(options.id);
  let after = options.after;
  if (after !== undefined && !positionSchema.safeParse(after).success) {
    throw new TaskwireError('protocol', 'The position to read after is not one a service gave.', {
      reason: 'INVALID_POSITION',
      taskId,
    });
  }
  const call = setup.context.feed.begin('stream', name);
  call.taskId = taskId;
  const controller = new AbortController();
  const userSignal = options.signal;
  const onAbort = () => controller.abort(userSignal?.reason);
  if (userSignal?.aborted) throw abortedError(userSignal, taskId);
  userSignal?.addEventListener('abort', onAbort, { once: true });
  const signal = controller.signal;
  const what = `The events read of '${name}'`;
  let failures = 0;
  let body: EventStreamBody | undefined;
  try {
    for (;;) {
      try {
        body = await openEventStream(
          setup,
          {
            method: 'GET',
            path: eventsPath(name, taskId),
            ...(after === undefined ? {} : { headers: { 'last-event-id': after } }),
          },
          what,
          call,
          signal,
        );
        if (body === undefined) return undefined;
        for (;;) {
          const messages = await body.next(taskId);
          if (messages === undefined) {
            throw new TaskwireError('network', `${what} ended before its final event.`, {
              taskId,
            });
          }
          for (const message of messages) {
            const position = message.id;
            if (position === undefined || !positionSchema.safeParse(position).success) {
              throw protocolError(what, 'a message has no position (its id: line).', taskId);
            }
            // A position at or before one already read is a repeat: the read after a resume may
            // overlap (docs/protocol.md, "Resumable streams (0.4)").
            if (after !== undefined && position <= after) continue;
            const event = checkStreamEvent<Event>(parseStreamData(message.data, taskId), {
              schema: options.schema,
              taskId,
              eventIdFrom: 'message',
            });
            after = position;
            failures = 0;
            setup.context.feed.report('event', call, event);
            yield { position, event };
            if (isFinalEvent(event as { type: string })) return undefined;
          }
        }
      } catch (error) {
        body?.close();
        body = undefined;
        const typed = TaskwireError.isInstance(error)
          ? error
          : new TaskwireError('network', `${what} broke.`, { taskId, cause: error });
        const resumable = typed.code === 'network' || (typed.code === 'http' && typed.retryable);
        failures += 1;
        if (!resumable || signal.aborted || failures > RESUME_ATTEMPTS) {
          setup.context.feed.report('error', call, typed);
          throw typed;
        }
        // A break right after a message is read again at once; then 1 s, 2 s… (or the service's
        // Retry-After), as for every request that may heal.
        const attempt = typed.code === 'network' ? failures - 2 : failures - 1;
        if (attempt >= 0) {
          await pause(retryDelay(attempt, typed.retryAfterMs), signal).catch(() => {
            throw abortedError(signal, taskId);
          });
        }
      }
    }
  } finally {
    body?.close();
    userSignal?.removeEventListener('abort', onAbort);
    controller.abort();
  }
}

/** One message of the multiplexed read: a task's event at its position, or the task's error. */
export type FollowMessage<Event> =
  | { task: string; id: string; position: string; event: Event }
  | { task: string; id: string; error: TaskwireError };

/** What the multiplexed read follows. */
export interface FollowOptions {
  /** The tasks, each with the position it has (or `null` from the first message). */
  tasks: readonly FollowedTask[];
  /** The schemas of a task, when the client has them. */
  schemaOf: (task: string) => TaskSchema | undefined;
  /** Closes the read. */
  signal: AbortSignal | undefined;
  /**
   * Called once the service answered the read with an event stream: the moment a page that hands
   * over from an older read closes it.
   */
  onOpen?: (() => void) | undefined;
}

/**
 * The multiplexed read (docs/protocol.md, "Resumable streams (0.4)"): one connection for every
 * task the page follows, each message checked as its task's stream would be. A task that cannot be
 * read comes once as an `http` error with the service's reason. The iteration ends when every task
 * has ended; it rejects when the connection breaks (the caller opens a new read with the positions
 * it has), and it does not resume by itself. Internal: the hooks drive it.
 */
export async function* followTasks<Event>(
  setup: EventsReadSetup,
  options: FollowOptions,
): AsyncGenerator<FollowMessage<Event>, undefined, undefined> {
  const call = setup.context.feed.begin('stream', '*');
  const controller = new AbortController();
  const userSignal = options.signal;
  const onAbort = () => controller.abort(userSignal?.reason);
  if (userSignal?.aborted) throw abortedError(userSignal);
  userSignal?.addEventListener('abort', onAbort, { once: true });
  const signal = controller.signal;
  const what = 'The multiplexed events read';
  const positions = new Map(options.tasks.map((task) => [`${task.task}\0${task.id}`, task.after]));
  let body: EventStreamBody | undefined;
  try {
    body = await openEventStream(
      setup,
      { method: 'POST', path: FOLLOW_PATH, body: JSON.stringify({ follow: options.tasks }) },
      what,
      call,
      signal,
    );
    if (body === undefined) return undefined;
    options.onOpen?.();
    for (;;) {
      const messages = await body.next(undefined);
      if (messages === undefined) return undefined;
      for (const message of messages) {
        const parsed = followMessageSchema.safeParse(parseStreamData(message.data, undefined));
        if (!parsed.success) throw protocolError(what, 'a message is not { task, id, … }.');
        const data = parsed.data;
        const key = `${data.task}\0${data.id}`;
        if (!positions.has(key)) throw protocolError(what, 'a message names a task not followed.');
        if ('error' in data) {
          const errorBody = data.error;
          positions.delete(key);
          yield {
            task: data.task,
            id: data.id,
            error: new TaskwireError(
              'http',
              `The service answered ${errorBody.statusCode} ${errorBody.reason}: ${errorBody.message}`,
              {
                status: errorBody.statusCode,
                reason: errorBody.reason,
                body: errorBody,
                taskId: data.id,
              },
            ),
          };
          continue;
        }
        const last = positions.get(key);
        // The page hands over from one read to the next with a short overlap: a repeat is dropped.
        if (last !== null && last !== undefined && data.position <= last) continue;
        positions.set(key, data.position);
        const event = checkStreamEvent<Event>(data.message, {
          schema: options.schemaOf(data.task),
          taskId: data.id,
          eventIdFrom: 'message',
        });
        setup.context.feed.report('event', call, event);
        yield { task: data.task, id: data.id, position: data.position, event };
      }
    }
  } catch (error) {
    const typed = TaskwireError.isInstance(error)
      ? error
      : new TaskwireError('network', `${what} broke.`, { cause: error });
    setup.context.feed.report('error', call, typed);
    throw typed;
  } finally {
    body?.close();
    userSignal?.removeEventListener('abort', onAbort);
    controller.abort();
  }
}
