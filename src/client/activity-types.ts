/**
 * The types of the client's activity feed (docs/protocol.md, "The activity feed"): what
 * `client.subscribe(listener)` reports, and the raw reports the parts of the client make
 * (`activity-feed.ts`), which `activity.ts` turns into activities.
 */
import type { TaskwireError, TaskwireErrorCode } from './errors.js';
import type { ExecuteRecord, OptionsResult, SubmitAnswer } from '../protocol/start-answers.js';
import type { TaskRecord } from '../protocol/records.js';
import type { StreamEvent, UnknownTaskEvent } from '../protocol/stream-events.js';
import type { JsonObject } from '../protocol/records.js';

/**
 * Which method of the client a call is: `submit`, `result` (Get Result), `stream`, `execute` or
 * `options`.
 */
export type ClientOperation = 'submit' | 'result' | 'stream' | 'execute' | 'options';

/** What every activity says about the call it belongs to. */
export interface ActivityCall {
  /** A number per call of this client (1, 2, …), shared by every activity of that call. */
  call: number;
  /** Which method was called. */
  operation: ClientOperation;
  /** The task name as the call gave it. */
  task: string;
  /**
   * The task id, once known: Get Result's id, a stream's `x-task-id`, the id in an answer or an
   * error; `undefined` before (a stream's POST, a Submit not yet answered) or for Options.
   */
  taskId: string | undefined;
}

/**
 * One HTTP exchange, reported when its answer's status line arrived or it failed without one. A
 * call sends one, or two with the retry after a 401 (`attempt` 0, then 1).
 */
export interface RequestActivity extends ActivityCall {
  type: 'request';
  /** The HTTP method. */
  method: 'GET' | 'POST';
  /** The path below the base URL, as sent (encoded): `/workflows/echo/submit`. */
  path: string;
  /** 0 for the first send, 1 for the one retry after a 401. */
  attempt: number;
  /** The answer's status, or `undefined` when none came (the `error` says why). */
  status: number | undefined;
  /** Milliseconds from sending to the status line, or to the failure. */
  durationMs: number;
  /** The `Idempotency-Key` sent (Submit only). */
  idempotencyKey: string | undefined;
  /** Why no answer came: `network` or `aborted`; `undefined` when one did. */
  error: TaskwireErrorCode | undefined;
}

/** The client sending a request again: after a 401, once `onUnauthorized` has resolved. */
export interface RetryActivity extends ActivityCall {
  type: 'retry';
  /** Why: `unauthorized`, the one retry the client itself makes (docs/protocol.md, "The client"). */
  reason: 'unauthorized';
  /** The HTTP method of the request sent again. */
  method: 'GET' | 'POST';
  /** The path of the request sent again. */
  path: string;
  /** The status that caused the retry: 401. */
  status: number;
}

/**
 * A call's validated answer, the very object the call resolves to (do not change it): the submit
 * answer, the task record (progress, result, usage), Execute's record (with usage) or the Options
 * quote. A stream has none: its events are reported one by one.
 */
export type AnswerActivity = ActivityCall & { type: 'answer' } & (
    | { operation: 'submit'; answer: SubmitAnswer }
    | { operation: 'result'; answer: TaskRecord }
    | { operation: 'execute'; answer: ExecuteRecord }
    | { operation: 'options'; answer: OptionsResult }
  );

/** One validated stream event, as the stream hands it out. */
export interface StreamEventActivity extends ActivityCall {
  type: 'event';
  operation: 'stream';
  /** The event, validated (the same object the stream yields). */
  event: StreamEvent<JsonObject> | UnknownTaskEvent;
}

/**
 * A call that rejected: the `TaskwireError`'s own fields, never its `cause` or `body` (what an app's
 * token function threw may hold a token).
 */
export interface ErrorActivity extends ActivityCall {
  type: 'error';
  /** The error's code. */
  code: TaskwireErrorCode;
  /** The service's or the client's reason, when there is one. */
  reason: string | undefined;
  /** The HTTP status, when there is one. */
  status: number | undefined;
  /** The error's message (messages never quote a token). */
  message: string;
  /** Whether the same call may succeed later. */
  retryable: boolean;
}

/**
 * Everything `client.subscribe` reports, told apart by `type`: `request`, `retry`, `answer`,
 * `event` and `error`. No activity ever holds a token.
 */
export type TaskwireActivity =
  RequestActivity | RetryActivity | AnswerActivity | StreamEventActivity | ErrorActivity;

/**
 * A listener of `client.subscribe`, called synchronously with each activity, in the order it
 * happened. What a listener throws is logged with `console.error` and never reaches the call.
 */
export type TaskwireActivityListener = (activity: TaskwireActivity) => void;

/** One call as the feed tracks it: the task as given, its id once known. */
export interface CallRecord {
  /** A number per call of the client, from 1. */
  call: number;
  operation: ClientOperation;
  /** The task name as the call gave it (not yet checked). */
  task: unknown;
  /** The task id, set once known. */
  taskId?: string | undefined;
}

/**
 * What a report reads of a request: its method, path and extra headers (only the
 * Idempotency-Key; the tokens are never among them).
 */
interface SentRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string> | undefined;
}

/** What a part of the client reports, in the order `activity.ts` reads it. */
export type RawActivity =
  | [
      type: 'request',
      call: CallRecord,
      request: SentRequest,
      attempt: number,
      durationMs: number,
      outcome: Response | TaskwireError,
    ]
  | [type: 'retry', call: CallRecord, request: SentRequest, status: number]
  | [type: 'answer', call: CallRecord, answer: unknown]
  | [type: 'event', call: CallRecord, event: unknown]
  | [type: 'error', call: CallRecord, error: unknown];

/** Reports one activity; does nothing while no one listens. */
type ReportActivity = (...raw: RawActivity) => void;

/** The activity feed of one client. */
export interface ActivityFeed {
  report: ReportActivity;
  /** `client.subscribe`: adds a listener and returns the function that removes it. */
  subscribe(listener: TaskwireActivityListener): () => void;
  /** The record of a new call. */
  begin(operation: ClientOperation, task: unknown): CallRecord;
}
