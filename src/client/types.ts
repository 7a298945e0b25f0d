/**
 * The outside of the client (docs/protocol.md, "The client"): its configuration, the task client
 * interface, and the types that make a task map type `params`, `result` and custom events by task
 * name.
 */
import type { NotificationRequest } from '../protocol/notification.js';
import type { ExecuteRecord, OptionsResult } from '../protocol/start-answers.js';
import type { SubmitAnswer } from '../protocol/start-answers.js';
import type { TaskRecord } from '../protocol/records.js';
import type {
  TaskName,
  TaskParams,
  TaskResult,
  TaskSchemas,
  TaskStreamEvent,
} from '../protocol/task-schemas.js';
import type { TaskwireActivityListener } from './activity-types.js';

/** A token, or a function that returns one (asked again for every request, so it may refresh). */
export type TokenSource = string | (() => string | Promise<string>);

/** Configuration of {@link TaskClient}. */
export interface TaskClientConfig<Tasks extends TaskSchemas = TaskSchemas> {
  /** Base URL of the service, for example `http://127.0.0.1:8787` or `/taskwire` on the same origin. */
  baseUrl: string;
  /**
   * The user's token, sent as `Authorization: Bearer …`. Left out, no `Authorization` header is
   * sent: for a proxy whose `authorize` supplies the user's token from the app's own session
   * (docs/protocol.md, "The client").
   */
  userToken?: TokenSource;
  /**
   * The calling application's token, sent as `x-app-authorization: Bearer …`. Left out, the header
   * is not sent: for a proxy that adds it on the server, so the app token never reaches the browser.
   */
  clientToken?: TokenSource;
  /** The `platform` header, when set. */
  platform?: string;
  /** The `x-touchpoint` header, when set. */
  touchpoint?: string;
  /** The `fetch` to use: the global one by default, or a service's in-process `fetch`. */
  fetch?: (request: Request) => Promise<Response>;
  /** Called once after a 401; the request is then sent once more with the tokens read again. */
  onUnauthorized?: () => void | Promise<void>;
  /**
   * The client's own deadline for Execute, in milliseconds. Defaults to `25000`. This and the two
   * below wait at most `2147483647` (about 24.8 days, the longest a timer waits), however long.
   */
  executeTimeoutMs?: number;
  /**
   * The deadline of every other request but a stream, from sending to the last byte of its answer,
   * in milliseconds; past it the request is aborted and rejects with a retryable `timeout`.
   * Defaults to `30000`.
   */
  requestTimeoutMs?: number;
  /**
   * How long a stream may receive no byte (keep-alive comments count) before it is aborted and
   * reported as broken (`network`, with the task id, so the hooks recover by polling), in
   * milliseconds. Defaults to `45000`, three of the service's 15-second keep-alives.
   */
  streamIdleTimeoutMs?: number;
  /** The largest JSON answer read, in bytes; a larger one is refused (`protocol`) while it is read. Defaults to `8 * 1024 * 1024`. */
  maxResponseBytes?: number;
  /** Per-task schemas: type the methods by task name and validate params and results. */
  tasks?: Tasks;
  /**
   * The largest stream event accepted; a larger one is refused while it arrives (`protocol`).
   * Counted as the stream parser holds it, in characters (as many as bytes for ASCII, never more).
   * Defaults to `16 * 1024 * 1024`.
   */
  maxEventBytes?: number;
  /**
   * The most streams `useTaskStream` keeps open to this service's origin at once across the tabs of
   * one browser (held as Web Locks where the browser has them, else counted in the page), so
   * streams never take all of the browser's six HTTP/1.1 connections per host. A stream started
   * beyond it starts its task at once with Submit and is followed with Get Result: the same states,
   * but custom events arrive as references `{ type, eventId }` without their payload
   * (docs/protocol.md, "The stream budget"). `client.stream()` itself always opens a connection.
   * A whole number of at least 1. Defaults to `4`.
   */
  maxOpenStreams?: number;
  /**
   * A name for what this client sees, placed in every query key the hooks write
   * (`['taskwire', scope, …]`), so that two clients sharing one QueryClient (two users, two services)
   * never share a cache entry. An app that switches users sets it to the user's id. Defaults to
   * `baseUrl`.
   */
  scope?: string;
}

/** Options every call takes. */
export interface RequestOptions {
  /** Aborts the request; an already-aborted signal sends nothing. */
  signal?: AbortSignal;
}

/** Options of {@link TaskClient.getResult}. */
export interface GetResultOptions extends RequestOptions {
  /**
   * Called with the service's `Retry-After` hint in milliseconds (or `undefined` when it sent none)
   * before the record is returned; the polling hooks use it to space their polls.
   */
  onRetryAfter?: (retryAfterMs: number | undefined) => void;
}

/** Options of {@link TaskClient.submit}. */
export interface SubmitOptions extends RequestOptions {
  /** Sent as `Idempotency-Key`. Defaults to a fresh random UUID per call (from `crypto.getRandomValues`, so plain-http origins work too). */
  idempotencyKey?: string;
  /** Asks for a notification on completion (docs/protocol.md, "Notifications"). */
  notification?: NotificationRequest;
}

/** Options of {@link TaskClient.stream}. */
export interface StreamOptions extends RequestOptions {
  /** Called once the service has accepted the stream, with the task id from `x-task-id`. */
  onOpen?: (info: { taskId: string | undefined }) => void;
}

/** A running stream: iterate it for its events; it ends after `task.completed` or `task.failed`. */
export interface TaskStream<Event> extends AsyncIterable<Event> {
  /** The task id from `x-task-id`, once the service has answered; `undefined` before or without it. */
  readonly taskId: string | undefined;
  /**
   * Whether the service said the stream is resumable (`x-taskwire-resumable: 1`; docs/protocol.md,
   * "Resumable streams (0.4)"), once it answered: then `position` follows the events. Optional,
   * so that a stream made by hand (a test's) need not say; the client's streams always do.
   */
  readonly resumable?: boolean;
  /**
   * The position of the last event returned, in a resumable stream: pass it as `after` to
   * `client.events()` to read the rest of the task after a break. Kept here, never in the event,
   * where a field of the task's own could clash. `undefined` before the first event, or when the
   * stream is not resumable.
   */
  readonly position?: string | undefined;
}

/** Options of {@link TaskClient.events}. */
export interface TaskEventsOptions extends RequestOptions {
  /**
   * The position to read after (a `position` of an earlier message, or a stream's `position`).
   * Defaults to reading from the task's first message.
   */
  after?: string;
}

/** One message of {@link TaskClient.events}: the event, and the position to read on after it. */
export interface TaskEventsMessage<Event> {
  /** The message's position, an opaque string: pass it as `after` to read on from here. */
  position: string;
  /** The event, checked as a stream's events are. */
  event: Event;
}

/**
 * The client of the task workflow service (docs/protocol.md, "The client"). Every method rejects
 * with a `TaskwireError`.
 */
export interface TaskClient<Tasks extends TaskSchemas = TaskSchemas> {
  /** The per-task schemas the client was created with, if any. */
  readonly tasks: Tasks | undefined;
  /** The service's base URL, as the config gave it (checked to hold no credentials). */
  readonly baseUrl: string;
  /** The stream budget of `useTaskStream`: the config's `maxOpenStreams`, or `4`. */
  readonly maxOpenStreams: number;
  /** The scope of the client's query keys: the config's `scope`, or its `baseUrl`. */
  readonly scope: string;
  /**
   * Whether `scope` was given in the config (the signed-in user's id, say) rather than taken from
   * `baseUrl`: a journal keeps tasks per user, so it needs one.
   */
  readonly scopeIsExplicit: boolean;
  /**
   * Listens to the client's activity (docs/protocol.md, "The activity feed"): each request, retry,
   * validated answer, stream event and error, as a `TaskwireActivity`, synchronously as it
   * happens; never a token. The place to hook logging or metrics. Returns the function that stops
   * the listening. A listener that throws is logged with `console.error`; the call goes on. The
   * same function subscribed twice is called once.
   */
  subscribe(listener: TaskwireActivityListener): () => void;
  /** Submits a task to run in the background; resolves to its id. Never creates a task twice for one call. */
  submit<Name extends TaskName<Tasks>>(
    task: Name,
    params: TaskParams<Tasks, Name>,
    options?: SubmitOptions,
  ): Promise<SubmitAnswer>;
  /** Reads a task's record: status, progress, events, result and usage. */
  getResult<Name extends TaskName<Tasks>>(
    task: Name,
    id: string,
    options?: GetResultOptions,
  ): Promise<TaskRecord<TaskResult<Tasks, Name>>>;
  /**
   * Runs a task and streams its events; the POST is never sent twice. Each call holds one
   * connection while it runs: `useTaskStream` keeps the page's streams within `maxOpenStreams`.
   */
  stream<Name extends TaskName<Tasks>>(
    task: Name,
    params: TaskParams<Tasks, Name>,
    options?: StreamOptions,
  ): TaskStream<TaskStreamEvent<Tasks, Name>>;
  /**
   * Reads a task's messages (docs/protocol.md, "Resumable streams (0.4)") after `after`, or from
   * its first one, each with its `position`, then the live ones, ending after the final one: the
   * whole sequence of a task started elsewhere (another tab, another device, the app's server), or
   * the rest of a stream that broke. It resumes by itself after a dropped connection from the last
   * position (at most three times in a row without a message) and never posts the task again. For
   * a service that offers no resumable streams it rejects with `http` 404 `NOT_FOUND`; for another
   * user's task, or an unknown one, 404 `RESULT_NOT_FOUND`; for a log past its limits, 410
   * `EVENTS_EXPIRED`: read the task with `getResult` then.
   */
  events<Name extends TaskName<Tasks>>(
    task: Name,
    id: string,
    options?: TaskEventsOptions,
  ): AsyncIterable<TaskEventsMessage<TaskStreamEvent<Tasks, Name>>>;
  /** Runs a task and waits for its outcome (tasks of up to 20 s). */
  execute<Name extends TaskName<Tasks>>(
    task: Name,
    params: TaskParams<Tasks, Name>,
    options?: RequestOptions,
  ): Promise<ExecuteRecord<TaskResult<Tasks, Name>>>;
  /** Asks what a task would cost, without running it. */
  options<Name extends TaskName<Tasks>>(
    task: Name,
    params: TaskParams<Tasks, Name>,
    options?: RequestOptions,
  ): Promise<OptionsResult>;
}
