/**
 * The events read of resumable streams (docs/protocol.md, "Resumable streams (0.4)"):
 * `client.events()`, one task's messages after a position, resuming by itself from its last
 * position when the connection drops, and the opening of an event-stream answer that the
 * multiplexed read (follow-tasks.ts) shares. It only reads: it never posts a task again.
 */
import { TaskwireError } from '../errors.js';
import { abortedError, pause, raceAbort } from '../abort.js';
import { protocolError } from '../error-factories.js';
import { checkTaskId, checkTaskName } from '../call-checks.js';
import { discardBody, errorFromResponse, notTaskwireAnswer } from '../read-answer.js';
import { send, type RequestContext } from '../request.js';
import type { CallRecord } from '../activity-types.js';
import type { TaskSchema } from '../../protocol/task-schemas.js';
import { isEventStreamMediaType } from '../../protocol/media-types.js';
import { isFinalEvent } from '../../protocol/stream-events.js';
import { retryDelay } from '../../protocol/retry-after.js';
import { isPosition } from '../../protocol/resumable-streams.js';
import { taskPath } from '../../protocol/match-route.js';
import {
  createEventStreamReader,
  EventTooLargeError,
  type EventStreamReader,
} from '../../protocol/event-stream-reader.js';
import { checkStreamEvent, parseStreamData } from './stream-event.js';
import { createIdleWatchdog } from './idle-watchdog.js';

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

/** The messages of the next chunk that completes one, or `undefined` at the body's end. */
type Messages = Awaited<ReturnType<EventStreamReader['read']>>;

/**
 * An open event-stream answer, read message by message with an idle watchdog: `next()` resolves to
 * the next batch of messages, `undefined` at the end, or rejects (`network` when it broke or went
 * silent, `protocol` for an event too large).
 */
export interface EventStreamBody {
  /** The next batch of messages, for errors naming `taskId`. */
  next(taskId: string | undefined): Promise<Messages>;
  /** Closes the connection. */
  close(): void;
}

/** Reads `body` as an {@link EventStreamBody} under the client's idle limit and `signal`. */
function eventStreamBody(
  body: ReadableStream<Uint8Array>,
  { idleTimeoutMs, maxEventBytes }: EventsReadSetup,
  signal: AbortSignal,
): EventStreamBody {
  let silent = false;
  const watchdog = createIdleWatchdog(idleTimeoutMs, () => {
    silent = true;
    void reader.cancel();
  });
  const reader = createEventStreamReader(body, { maxEventBytes, onChunk: watchdog.arm });
  return {
    async next(taskId) {
      watchdog.arm();
      let messages: Messages;
      try {
        messages = await raceAbort(reader.read(), signal);
      } catch (error) {
        if (signal.aborted) throw abortedError(signal, taskId);
        if (error instanceof EventTooLargeError) {
          throw protocolError('The events read', error.message, taskId);
        }
        throw new TaskwireError('network', 'The events read broke before its final event.', {
          taskId,
          cause: error,
        });
      } finally {
        watchdog.disarm();
      }
      // A silent read was cancelled by the watchdog, which ends it like a body that ended.
      if (silent) {
        throw new TaskwireError(
          'network',
          `The events read received nothing for ${idleTimeoutMs} ms, not even a keep-alive, so it was closed.`,
          { taskId },
        );
      }
      return messages;
    },
    close() {
      watchdog.disarm();
      void reader.cancel();
    },
  };
}

/**
 * Opens an event-stream answer: checks its status and content type, or throws the typed error;
 * `undefined` for a 204, a read after the task's final message.
 */
export async function openEventStream(
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
  return eventStreamBody(response.body, setup, signal);
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
  if (after !== undefined && !isPosition(after)) {
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
            path: taskPath('events', name, taskId),
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
            if (!isPosition(position)) {
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
