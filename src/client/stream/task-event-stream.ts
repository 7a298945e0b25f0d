/**
 * A task's event stream (docs/protocol.md, "Streams"): one POST, the checks of its answer, the
 * reading of its body as server-sent events and the checking of each event, and an async iterator
 * over those events that ends after `task.completed` or `task.failed`. The connection loop is ours,
 * so nothing is ever sent twice. The bytes are read by {@link createEventStreamReader}, the one
 * reader of event streams (src/protocol/event-stream-reader.ts), which the WHATWG vectors and the
 * chunk-size tests run alone.
 */
import { TaskwireError } from '../errors.js';
import { abortedError, raceAbort } from '../abort.js';
import { protocolError } from '../error-factories.js';
import { checkTaskName, requestBody } from '../call-checks.js';
import {
  badTaskIdHeader,
  discardBody,
  errorFromResponse,
  notTaskwireAnswer,
  type Sent,
} from '../read-answer.js';
import { send, type RequestContext } from '../request.js';
import { isFinalEvent } from '../../protocol/stream-events.js';
import { EVENT_STREAM, isEventStreamMediaType } from '../../protocol/media-types.js';
import { isTaskId } from '../../protocol/names.js';
import { offersResumableStreams } from '../../protocol/resumable-streams.js';
import { taskPath } from '../../protocol/match-route.js';
import { checkStreamEvent, parseStreamData } from './stream-event.js';
import type { EventSourceMessage } from 'eventsource-parser';
import {
  createEventStreamReader,
  EventTooLargeError,
  type EventStreamReader,
} from '../../protocol/event-stream-reader.js';
import { createIdleWatchdog, type IdleWatchdog } from './idle-watchdog.js';
import type { TaskStream } from '../types.js';
import type { CallRecord } from '../activity-types.js';
import type { TaskSchema } from '../../protocol/task-schemas.js';

/** What a {@link TaskEventStream} is asked to stream. */
export interface TaskEventStreamOptions {
  /** The client's way of sending a request (tokens, base URL, `fetch`, the activity feed). */
  context: RequestContext;
  /** The task name as the call gave it; checked on the first `next()`. */
  task: unknown;
  /** The params as the call gave them; checked on the first `next()`. */
  params: unknown;
  /** The task's schemas (params, result, custom events), when the client has them. */
  schema: TaskSchema | undefined;
  /** The cap on one event, in bytes. Defaults to the reader's 16 MiB. */
  maxEventBytes: number | undefined;
  /**
   * How long the stream may receive no byte, from the POST on, keep-alives counting, before it is
   * closed and reported as broken (`network`, with the task id when known).
   */
  idleTimeoutMs: number;
  /** The caller's signal. */
  signal: AbortSignal | undefined;
  /** Called once the answer has passed its checks. */
  onOpen: ((info: { taskId: string | undefined }) => void) | undefined;
}

type Phase = 'idle' | 'open' | 'done';

/**
 * An event stream of one task: iterate it (once) for its events. The POST is sent on the first
 * `next()`, so a stream that is never iterated sends nothing.
 */
export class TaskEventStream<Event> implements TaskStream<Event>, AsyncIterableIterator<Event> {
  readonly #setup: TaskEventStreamOptions;
  /** The idle watchdog: it runs while we wait for bytes, not while the caller holds events. */
  readonly #watchdog: IdleWatchdog;
  /** The stream's record in the activity feed; its task id is set once the service sent one. */
  readonly #call: CallRecord;
  readonly #controller = new AbortController();
  #phase: Phase = 'idle';
  #taskId: string | undefined;
  #reader: EventStreamReader | undefined;
  // The messages of the last chunk read and the next one to hand out: a fast stream is served from
  // here with an already-settled promise per event, and the network is read once per chunk.
  #messages: EventSourceMessage[] = [];
  #index = 0;
  #busy: Promise<void> | undefined;
  #stopped = false;
  #resumable = false;
  #position: string | undefined;

  constructor(setup: TaskEventStreamOptions) {
    this.#setup = setup;
    this.#watchdog = createIdleWatchdog(setup.idleTimeoutMs, this.#closeIdle);
    this.#call = setup.context.feed.begin('stream', setup.task);
  }

  /** The task id from `x-task-id`, once the service has answered. */
  get taskId(): string | undefined {
    return this.#taskId;
  }

  /** Whether the service said the stream is resumable (`x-taskwire-resumable: 1`), once it answered. */
  get resumable(): boolean {
    return this.#resumable;
  }

  /**
   * The position of the last event returned, in a resumable stream: pass it as `after` to
   * `client.events()` to read the rest of the task. `undefined` before the first event, or when the
   * stream is not resumable.
   */
  get position(): string | undefined {
    return this.#position;
  }

  /** The stream is its own iterator, like a generator. */
  [Symbol.asyncIterator](): this {
    return this;
  }

  /** The next event; the first call sends the request. */
  next(): Promise<IteratorResult<Event, undefined>> {
    if (this.#busy !== undefined) {
      // A call made while a chunk is being read waits for it, so events keep their order.
      return this.#busy.then(
        () => this.next(),
        () => this.next(),
      );
    }
    if (this.#index < this.#messages.length) {
      const message = this.#messages[this.#index++] as EventSourceMessage;
      let event: Event;
      try {
        event = this.#toEvent(message);
      } catch (error) {
        this.#finish();
        return Promise.reject(this.#failed(error));
      }
      this.#report('event', event);
      if (isFinalEvent(event as { type: string })) this.#finish();
      return Promise.resolve({ value: event, done: false });
    }
    if (this.#phase === 'done') return Promise.resolve({ value: undefined, done: true });
    const pull = this.#pull();
    this.#busy = pull;
    return pull.then(
      () => {
        this.#busy = undefined;
        return this.next();
      },
      (error: unknown) => {
        this.#busy = undefined;
        this.#finish();
        if (this.#stopped) return { value: undefined, done: true };
        throw this.#failed(error);
      },
    );
  }

  /** Stops the stream (a `break` out of `for await` calls this): closes the connection. */
  return(): Promise<IteratorResult<Event, undefined>> {
    this.#stopped = true;
    this.#finish();
    return Promise.resolve({ value: undefined, done: true });
  }

  #idle = false;

  /** Ends a silent stream: the read in progress fails, and `#typed` says it was silent. */
  readonly #closeIdle = (): void => {
    this.#idle = true;
    this.#controller.abort();
    void this.#reader?.cancel();
  };

  readonly #onAbort = (): void => {
    this.#controller.abort(this.#setup.signal?.reason);
    void this.#reader?.cancel();
  };

  /** Reads the next chunk that completes at least one message, opening the connection first. */
  async #pull(): Promise<void> {
    try {
      if (this.#phase === 'idle') await this.#open();
      const reader = this.#reader as EventStreamReader;
      this.#watchdog.arm();
      const messages = await raceAbort(reader.read(), this.#controller.signal);
      this.#watchdog.disarm();
      if (this.#setup.signal?.aborted) throw this.#setup.signal.reason;
      if (messages === undefined) {
        throw new TaskwireError('network', 'The stream ended before its final event.', {
          taskId: this.#taskId,
        });
      }
      this.#messages = messages;
      this.#index = 0;
    } catch (error) {
      throw this.#typed(error);
    }
  }

  async #open(): Promise<void> {
    this.#phase = 'open';
    const userSignal = this.#setup.signal;
    const signal = this.#controller.signal;
    if (userSignal !== undefined) {
      if (userSignal.aborted) throw abortedError(userSignal);
      userSignal.addEventListener('abort', this.#onAbort, { once: true });
    }
    this.#watchdog.arm();
    const sent = await this.#post(signal);
    const { response } = sent;
    if (!response.ok) throw await errorFromResponse(sent, signal);
    const taskIdHeader = response.headers.get('x-task-id');
    if (taskIdHeader !== null) {
      if (!isTaskId(taskIdHeader)) {
        await discardBody(response);
        throw badTaskIdHeader('The stream answer');
      }
      this.#taskId = this.#call.taskId = taskIdHeader;
    }
    this.#resumable = offersResumableStreams(response.headers);
    const contentType = response.headers.get('content-type');
    if (!isEventStreamMediaType(contentType)) {
      await discardBody(response);
      throw notTaskwireAnswer(
        'The stream answer',
        `its content type is ${contentType ?? 'missing'}, not ${EVENT_STREAM}.`,
        sent.where,
        this.#taskId,
      );
    }
    if (response.body === null) {
      throw new TaskwireError('network', 'The stream answer has no body.', {
        taskId: this.#taskId,
      });
    }
    this.#reader = createEventStreamReader(response.body, {
      maxEventBytes: this.#setup.maxEventBytes,
      onChunk: this.#watchdog.arm,
    });
    this.#setup.onOpen?.({ taskId: this.#taskId });
  }

  /** Checks the call and sends the POST (the one retry after a 401 included); never twice. */
  async #post(signal: AbortSignal): Promise<Sent> {
    const { context, task, params, schema } = this.#setup;
    const name = checkTaskName(task);
    return send(context, {
      method: 'POST',
      path: taskPath('stream', name),
      body: requestBody(schema?.params, name, params),
      accept: EVENT_STREAM,
      signal,
      call: this.#call,
    });
  }

  /** Reports an event or the error the stream ends with to the activity feed. */
  #report(type: 'event' | 'error', value: unknown): void {
    this.#setup.context.feed.report(type, this.#call, value);
  }

  /** Reports the error the stream ends with to the activity feed, and returns it. */
  #failed(error: unknown): unknown {
    this.#report('error', error);
    return error;
  }

  /** Turns whatever went wrong into a `TaskwireError` that carries the task id when known. */
  #typed(error: unknown): TaskwireError {
    const userSignal = this.#setup.signal;
    if (userSignal?.aborted) return abortedError(userSignal, this.#taskId);
    if (this.#idle) {
      return new TaskwireError(
        'network',
        `The stream received nothing for ${this.#setup.idleTimeoutMs} ms, not even a keep-alive, so it was closed.`,
        { taskId: this.#taskId, cause: error },
      );
    }
    if (error instanceof EventTooLargeError) {
      return protocolError('The stream', error.message, this.#taskId);
    }
    if (TaskwireError.isInstance(error)) return error;
    return new TaskwireError('network', 'The stream broke before its final event.', {
      taskId: this.#taskId,
      cause: error,
    });
  }

  /** Parses one message's JSON and checks it with the event schemas, or throws a `protocol` error. */
  #toEvent(message: EventSourceMessage): Event {
    const taskId = this.#taskId;
    const event = checkStreamEvent<Event>(parseStreamData(message.data, taskId), {
      schema: this.#setup.schema,
      taskId,
      eventIdFrom: this.#resumable ? 'message' : { sseId: message.id },
    });
    // A resumable stream's `id:` is the message's position (docs/protocol.md, "Resumable streams
    // (0.4)"): kept beside the event, never in it, where a field of the task's could clash.
    if (this.#resumable && message.id !== undefined && message.id !== '') {
      this.#position = message.id;
    }
    return event;
  }

  /** Ends the stream: no more events, the connection closed, the caller's signal let go. */
  #finish(): void {
    if (this.#phase === 'done' && this.#messages.length === 0) return;
    this.#phase = 'done';
    this.#messages = [];
    this.#index = 0;
    this.#watchdog.disarm();
    this.#setup.signal?.removeEventListener('abort', this.#onAbort);
    void this.#reader?.cancel();
    // An in-process fetch may not watch the body's cancellation; the request's signal tells it too.
    this.#controller.abort();
  }
}
