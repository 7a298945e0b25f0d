/**
 * The HTTP layer of the client: URLs, headers, the one retry after a 401, and turning answers into
 * values or `TaskwireError`s. Tokens are read here and nowhere else, and never reach a URL or a
 * message.
 */
import * as z from 'zod/mini';
import { TaskwireError } from './errors.js';
import { parseRetryAfter } from '../protocol/retry-after.js';
import { describeIssues } from '../protocol/describe-issues.js';
import { errorBodySchema, taskIdSchema, type ErrorBody } from '../protocol/records.js';
import type { TokenSource } from './types.js';

/** What the HTTP layer needs from the client's configuration. */
export interface RequestContext {
  /** The base URL as configured (absolute, or a path on the page's origin). */
  baseUrl: string;
  userToken: TokenSource;
  clientToken: TokenSource;
  platform: string | undefined;
  touchpoint: string | undefined;
  fetch: (request: Request) => Promise<Response>;
  onUnauthorized: (() => void | Promise<void>) | undefined;
}

/** One request to send. */
export interface OutgoingRequest {
  method: 'GET' | 'POST';
  /** The path below the base URL, already encoded. */
  path: string;
  /** The JSON body of a POST. */
  body?: string;
  /** The media type asked for. */
  accept: string;
  /** Extra headers (the Idempotency-Key). */
  headers?: Record<string, string>;
  signal: AbortSignal;
}

/** Client-side refusal reasons: requests the client will not send because they break the contract. */
export type RefusalReason =
  | 'INVALID_TASK_NAME'
  | 'INVALID_TASK_ID'
  | 'INVALID_PARAMS'
  | 'INVALID_HEADER'
  | 'INVALID_BASE_URL';

/** A `protocol` error for a request the client refuses to send; `status` stays undefined. */
export function refusal(reason: RefusalReason, message: string): TaskwireError {
  return new TaskwireError('protocol', message, { reason });
}

/** The `aborted` error, carrying the signal's reason as its cause. */
export function abortedError(signal: AbortSignal, taskId?: string): TaskwireError {
  return new TaskwireError('aborted', 'The request was aborted.', { taskId, cause: signal.reason });
}

/**
 * Settles like `promise`, or rejects with the signal's reason as soon as it aborts: a custom `fetch`
 * (an in-process service) may not watch the request's signal, and a caller must not wait for it.
 */
export function raceAbort<Value>(promise: Promise<Value>, signal: AbortSignal): Promise<Value> {
  if (signal.aborted) {
    promise.catch(noop);
    return Promise.reject(signal.reason);
  }
  return new Promise<Value>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** A signal that never aborts, for calls made without one. */
export const neverAborted = new AbortController().signal;

/** Does nothing; used to mark promises whose rejection is deliberately ignored. */
export function noop(): void {}

/** Bytes a header value may hold: `Headers` throws (quoting the value) on CR, LF, NUL or non-Latin-1. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Checks a header value here, so that no TypeError from `Headers` can ever quote a token. */
function headerValue(value: unknown, what: string): string {
  if (typeof value !== 'string' || !HEADER_VALUE.test(value)) {
    throw refusal('INVALID_HEADER', `The ${what} is not a string that can be sent in a header.`);
  }
  return value;
}

async function readToken(source: TokenSource, what: string): Promise<string> {
  return headerValue(typeof source === 'function' ? await source() : source, what);
}

/** An absolute URL scheme such as `http:`. */
const ABSOLUTE_URL = /^[a-z][a-z0-9+.-]*:/i;

/** The full URL of `path`, or a refusal when the base URL is relative and there is no page to resolve it. */
export function resolveUrl(baseUrl: string, path: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  if (ABSOLUTE_URL.test(base)) return base + path;
  const location = (globalThis as { location?: { href?: string } }).location;
  if (typeof location?.href !== 'string') {
    throw refusal(
      'INVALID_BASE_URL',
      `The base URL '${base}' is relative, and there is no page location to resolve it against.`,
    );
  }
  return new URL(base + path, location.href).href;
}

/**
 * Sends a request with both tokens (read afresh), and on a 401 awaits `onUnauthorized` once and sends
 * it once more with the tokens read again. Rejects with `aborted` or `network`; every status resolves.
 */
export async function send(context: RequestContext, outgoing: OutgoingRequest): Promise<Response> {
  const { signal } = outgoing;
  const url = resolveUrl(context.baseUrl, outgoing.path);
  for (let attempt = 0; ; attempt++) {
    if (signal.aborted) throw abortedError(signal);
    const [userToken, clientToken] = await Promise.all([
      readToken(context.userToken, 'user token'),
      readToken(context.clientToken, 'client token'),
    ]);
    if (signal.aborted) throw abortedError(signal);
    const headers: Record<string, string> = {
      ...outgoing.headers,
      accept: outgoing.accept,
      authorization: `Bearer ${userToken}`,
      'x-app-authorization': `Bearer ${clientToken}`,
    };
    if (context.platform !== undefined) headers.platform = context.platform;
    if (context.touchpoint !== undefined) headers['x-touchpoint'] = context.touchpoint;
    if (outgoing.body !== undefined) headers['content-type'] = 'application/json';
    for (const name in headers) headerValue(headers[name], `${name} value`);
    const request = new Request(url, {
      method: outgoing.method,
      headers,
      body: outgoing.body,
      signal,
    });
    let response: Response;
    try {
      response = await raceAbort(context.fetch(request), signal);
    } catch (error) {
      if (signal.aborted) throw abortedError(signal);
      throw new TaskwireError(
        'network',
        `${outgoing.method} ${outgoing.path} failed before an answer came.`,
        {
          cause: error,
        },
      );
    }
    if (response.status === 401 && attempt === 0 && context.onUnauthorized !== undefined) {
      await discardBody(response);
      await context.onUnauthorized();
      continue;
    }
    return response;
  }
}

/** Drops an answer's body so its connection can be reused or closed. */
export async function discardBody(response: Response): Promise<void> {
  try {
    await response.body?.cancel();
  } catch {
    // Nothing to release.
  }
}

/** Reads a body as text; an abort or a connection that breaks mid-body become typed errors. */
async function readText(
  response: Response,
  signal: AbortSignal,
  taskId: string | undefined,
): Promise<string> {
  try {
    return await raceAbort(response.text(), signal);
  } catch (error) {
    if (signal.aborted) throw abortedError(signal, taskId);
    throw new TaskwireError('network', 'The connection broke while the answer was being read.', {
      taskId,
      cause: error,
    });
  }
}

/**
 * The error for a non-2xx answer: `http` with status, reason and body (the parsed error body, or the
 * raw text when it is not one, such as a proxy's HTML page), or `timeout` for `EXECUTE_TIMEOUT`.
 */
export async function errorFromResponse(
  response: Response,
  signal: AbortSignal,
  taskId?: string,
): Promise<TaskwireError> {
  const text = await readText(response, signal, taskId);
  let body: ErrorBody | undefined;
  try {
    body = errorBodySchema.safeParse(JSON.parse(text)).data;
  } catch {
    // Not JSON: the text itself is the body.
  }
  const { status } = response;
  const message = body
    ? `The service answered ${status} ${body.reason}: ${body.message}`
    : `The service answered ${status}${response.statusText ? ` ${response.statusText}` : ''}.`;
  return new TaskwireError(body?.reason === 'EXECUTE_TIMEOUT' ? 'timeout' : 'http', message, {
    status,
    body: body ?? text,
    reason: body?.reason,
    taskId: body?.taskId ?? taskId,
    retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
  });
}

/** A `protocol` error about an answer or event; `what` says which one. */
export function protocolError(
  what: string,
  problem: string,
  taskId?: string,
  cause?: unknown,
): TaskwireError {
  return new TaskwireError('protocol', `${what} breaks the contract: ${problem}`, {
    taskId,
    cause,
  });
}

/**
 * Reads a 2xx JSON answer and validates its envelope and response, resolving to the response.
 * A non-2xx answer rejects with {@link errorFromResponse}.
 */
export async function readEnvelope<Schema extends z.ZodMiniType>(
  response: Response,
  schema: Schema,
  signal: AbortSignal,
  what: string,
  taskId?: string,
): Promise<z.infer<Schema>> {
  if (!response.ok) throw await errorFromResponse(response, signal, taskId);
  const text = await readText(response, signal, taskId);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const type = response.headers.get('content-type') ?? 'no content type';
    throw protocolError(what, `the answer is not JSON (${type}).`, taskId, error);
  }
  const parsed = z.safeParse(schema, json);
  if (!parsed.success) throw protocolError(what, describeIssues(parsed.error.issues), taskId);
  return parsed.data;
}

/** The contract's task name rule, re-checked here so a refusal names the rule. */
export function checkTaskName(task: unknown, pattern: RegExp): string {
  if (typeof task !== 'string' || !pattern.test(task)) {
    throw refusal(
      'INVALID_TASK_NAME',
      `The task name ${typeof task === 'string' ? `'${task.slice(0, 140)}'` : `(a ${typeof task})`} does not match ${pattern}.`,
    );
  }
  return task;
}

/**
 * Checks a task id (1 to 256 characters). `.` and `..` are refused too: a URL parser would read
 * them, even encoded, as path steps and send the request to another endpoint.
 */
export function checkTaskId(id: unknown): string {
  if (!taskIdSchema.safeParse(id).success || id === '.' || id === '..') {
    throw refusal(
      'INVALID_TASK_ID',
      'A task id must be a string of 1 to 256 characters, and not "." or "..".',
    );
  }
  return id as string;
}
