/**
 * The outside of the client (CONTRACT §2): its configuration, the task client interface, and the
 * types that make a task map type `params`, `result` and custom events by task name.
 */
import type * as z from 'zod/mini';
import type {
  CustomEvent,
  ExecuteRecord,
  JsonObject,
  OptionsResult,
  StreamEvent,
  SubmitAnswer,
  TaskRecord,
} from './schemas.js';

/** A token, or a function that returns one (asked again for every request, so it may refresh). */
export type TokenSource = string | (() => string | Promise<string>);

/** The schemas of one task: what its params, result and custom events look like. */
export interface TaskSchema {
  /** Params of the task; validated before any request is sent. */
  params: z.core.$ZodType;
  /** The task's final and partial result; validated on receipt. Defaults to any JSON object. */
  result?: z.core.$ZodType;
  /** The task's custom `event.*` events; validated on receipt. Defaults to any custom event. */
  events?: z.core.$ZodType;
}

/** A map from task name to the schemas of that task. */
export type TaskSchemas = Record<string, TaskSchema>;

/** The task names a client accepts: any valid name without a map, the map's names with one. */
export type TaskName<Tasks extends TaskSchemas> = string extends keyof Tasks
  ? string
  : keyof Tasks & string;

/** The params type of a task: from its schema, or any JSON object. */
export type TaskParams<Tasks extends TaskSchemas, Name extends string> = string extends keyof Tasks
  ? JsonObject // No map: every name is a key of `Record<string, …>`, whose params schema says nothing.
  : Name extends keyof Tasks
    ? z.input<Tasks[Name]['params']>
    : JsonObject;

/** The result type of a task: from its schema, or any JSON object. */
export type TaskResult<Tasks extends TaskSchemas, Name extends string> = Name extends keyof Tasks
  ? Tasks[Name] extends { result: infer Result extends z.core.$ZodType }
    ? z.output<Result>
    : JsonObject
  : JsonObject;

/** The custom event type of a task: from its schema, or any custom event. */
export type TaskCustomEvent<
  Tasks extends TaskSchemas,
  Name extends string,
> = Name extends keyof Tasks
  ? Tasks[Name] extends { events: infer Events extends z.core.$ZodType }
    ? z.output<Events> & { eventId?: string }
    : CustomEvent
  : CustomEvent;

/** A stream event of a task, typed by its name. */
export type TaskStreamEvent<Tasks extends TaskSchemas, Name extends string> =
  Exclude<StreamEvent<TaskResult<Tasks, Name>>, CustomEvent> | TaskCustomEvent<Tasks, Name>;

/** The notification asked for on Submit (§2.5). */
export interface NotificationRequest {
  /** Opt in to the notification when the task requires one. */
  enabled?: boolean;
  /** Content overriding the default notification. */
  data?: { title?: string; description?: string };
  /** Calls to action: `deeplink` must be `https:`, `mobileDeeplink` `https:` or an app scheme. */
  actions?: Array<{ deeplink?: string; mobileDeeplink?: string }>;
}

/** Configuration of {@link TaskClient}. */
export interface TaskClientConfig<Tasks extends TaskSchemas = TaskSchemas> {
  /** Base URL of the service, for example `http://127.0.0.1:8787` or `/taskwire` on the same origin. */
  baseUrl: string;
  /** The user's token, sent as `Authorization: Bearer …`. */
  userToken: TokenSource;
  /** The calling application's token, sent as `x-app-authorization: Bearer …`. */
  clientToken: TokenSource;
  /** The `platform` header, when set. */
  platform?: string;
  /** The `x-touchpoint` header, when set. */
  touchpoint?: string;
  /** The `fetch` to use: the global one by default, or a service's in-process `fetch`. */
  fetch?: (request: Request) => Promise<Response>;
  /** Called once after a 401; the request is then sent once more with the tokens read again. */
  onUnauthorized?: () => void | Promise<void>;
  /** The client's own deadline for Execute, in milliseconds. Defaults to `25000`. */
  executeTimeoutMs?: number;
  /** Per-task schemas: type the methods by task name and validate params and results. */
  tasks?: Tasks;
  /** The largest stream event accepted, in bytes. Defaults to `16 * 1024 * 1024`. */
  maxEventBytes?: number;
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
  /** Sent as `Idempotency-Key`. Defaults to a fresh `crypto.randomUUID()` per call. */
  idempotencyKey?: string;
  /** Asks for a notification on completion (§2.5). */
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
}

/** The client of the task workflow service (CONTRACT §2). Every method rejects with a `TaskwireError`. */
export interface TaskClient<Tasks extends TaskSchemas = TaskSchemas> {
  /** The per-task schemas the client was created with, if any. */
  readonly tasks: Tasks | undefined;
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
  /** Runs a task and streams its events; the POST is never sent twice. */
  stream<Name extends TaskName<Tasks>>(
    task: Name,
    params: TaskParams<Tasks, Name>,
    options?: StreamOptions,
  ): TaskStream<TaskStreamEvent<Tasks, Name>>;
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
