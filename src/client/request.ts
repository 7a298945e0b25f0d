/**
 * The HTTP layer of the client: URLs, headers, the one retry after a 401, and turning answers into
 * values or `TaskwireError`s. Tokens are read here and nowhere else, and never reach a URL or a
 * message.
 */
import * as z from 'zod/mini';
import { TaskwireError } from './errors.js';
import { describeIssues } from '../protocol/describe-issues.js';
import { taskIdSchema } from '../protocol/records.js';
import { loadErrorAnswers } from './load-on-first-use.js';
import type { TokenSource } from './types.js';
import type { ActivityFeed, CallRecord } from './activity-types.js';

/** What the HTTP layer needs from the client's configuration. */
export interface RequestContext {
  /** The base URL as configured (absolute, or a path on the page's origin). */
  baseUrl: string;
  /** Absent: no `Authorization` header (a proxy supplies it). */
  userToken: TokenSource | undefined;
  /** Absent: no `x-app-authorization` header (a proxy adds it on the server). */
  clientToken: TokenSource | undefined;
  platform: string | undefined;
  touchpoint: string | undefined;
  fetch: (request: Request) => Promise<Response>;
  onUnauthorized: (() => void | Promise<void>) | undefined;
  /** The largest JSON answer read, in bytes. */
  maxResponseBytes: number;
  /** The client's activity feed (`activity-feed.ts`): reports nothing while no one listens. */
  feed: ActivityFeed;
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
  /** The call the request belongs to, with its task id when known (for errors and activity). */
  call: CallRecord;
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

/** Runs one of the app's own functions; whatever it throws becomes a retryable `auth` error. */
async function runAppFunction<Value>(
  run: () => Value | Promise<Value>,
  what: string,
): Promise<Value> {
  try {
    return await run();
  } catch (error) {
    // The message names the function only: what it threw may hold a token, so it stays in `cause`.
    throw new TaskwireError('auth', `The app's ${what} failed.`, { cause: error });
  }
}

async function readToken(
  source: TokenSource | undefined,
  what: string,
): Promise<string | undefined> {
  if (source === undefined) return undefined;
  const token =
    typeof source === 'function' ? await runAppFunction(source, `${what} function`) : source;
  return headerValue(token, what);
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
 * Sends a request with the tokens configured (read afresh; a token left out sends no header), and on a 401 awaits `onUnauthorized` once and sends
 * it once more with the tokens read again. Rejects with `aborted` or `network`; every status resolves.
 */
export async function send(context: RequestContext, outgoing: OutgoingRequest): Promise<Response> {
  const { signal, call, method, path } = outgoing;
  const { taskId } = call;
  const url = resolveUrl(context.baseUrl, path);
  for (let attempt = 0; ; attempt++) {
    if (signal.aborted) throw abortedError(signal, taskId);
    const [userToken, clientToken] = await Promise.all([
      readToken(context.userToken, 'user token'),
      readToken(context.clientToken, 'client token'),
    ]);
    if (signal.aborted) throw abortedError(signal, taskId);
    const headers: Record<string, string> = {
      ...outgoing.headers,
      accept: outgoing.accept,
    };
    if (userToken !== undefined) headers.authorization = `Bearer ${userToken}`;
    if (clientToken !== undefined) headers['x-app-authorization'] = `Bearer ${clientToken}`;
    if (context.platform !== undefined) headers.platform = context.platform;
    if (context.touchpoint !== undefined) headers['x-touchpoint'] = context.touchpoint;
    if (outgoing.body !== undefined) headers['content-type'] = 'application/json';
    for (const name in headers) headerValue(headers[name], `${name} value`);
    const request = new Request(url, {
      method,
      headers,
      body: outgoing.body,
      signal,
      // A redirect would carry both tokens and the body to wherever it points.
      redirect: 'manual',
    });
    const started = performance.now();
    let outcome: Response | TaskwireError;
    try {
      outcome = await raceAbort(context.fetch(request), signal);
    } catch (error) {
      outcome = signal.aborted
        ? abortedError(signal, taskId)
        : networkError(method, url, error, taskId);
    }
    // `outgoing` holds no token (they are only in `headers`); activity.ts reads what it needs.
    context.feed.report('request', call, outgoing, attempt, performance.now() - started, outcome);
    if (TaskwireError.isInstance(outcome)) throw outcome;
    const response = outcome;
    if (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)) {
      await discardBody(response);
      throw new TaskwireError(
        'http',
        `${method} ${withoutQuery(url)} answered a redirect, never followed: check the base URL.`,
        { status: response.status, reason: 'REDIRECT', taskId },
      );
    }
    if (response.status === 401 && attempt === 0 && context.onUnauthorized !== undefined) {
      await discardBody(response);
      await runAppFunction(context.onUnauthorized, 'onUnauthorized');
      context.feed.report('retry', call, outgoing, 401);
      continue;
    }
    return response;
  }
}

/** A URL as messages show it: origin and path, never a query that might hold a secret. */
function withoutQuery(url: string): string {
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}

/** Error codes of Node and undici that say the connection was never made, so nothing was sent. */
const CONNECT_FAILURES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** The first connection error code in `error`'s cause chain, where the runtime gives one. */
function connectFailureOf(error: unknown): string | undefined {
  for (let cause = error, depth = 0; cause && depth < 4; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && CONNECT_FAILURES.has(code)) return code;
    cause = (cause as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * The `network` error of a request that got no answer, naming the method and the URL. Where the
 * runtime says the connection was never made, the reason is `CONNECT_FAILED` and the message says
 * that nothing was sent; otherwise the request may have reached the service.
 */
export function networkError(
  method: string,
  url: string,
  cause: unknown,
  taskId?: string,
): TaskwireError {
  const where = `${method} ${withoutQuery(url)}`;
  const refused = connectFailureOf(cause);
  return refused === undefined
    ? new TaskwireError('network', `${where} failed before an answer came.`, { cause, taskId })
    : new TaskwireError('network', `${where}: could not connect (${refused}); nothing was sent.`, {
        cause,
        taskId,
        reason: 'CONNECT_FAILED',
      });
}

/** Drops an answer's body so its connection can be reused or closed. */
export async function discardBody(response: Response): Promise<void> {
  try {
    await response.body?.cancel();
  } catch {
    // Nothing to release.
  }
}

/**
 * Reads at most `limit` bytes of a body as text, while it arrives: a larger body is cancelled there,
 * never read whole, and `cut` is true. An abort or a connection that breaks mid-body become typed
 * errors.
 */
export async function readCapped(
  response: Response,
  limit: number,
  signal: AbortSignal,
  taskId: string | undefined,
): Promise<{ text: string; cut: boolean }> {
  const reader = (
    response.body ?? new Response('').body
  )?.getReader() as ReadableStreamDefaultReader<Uint8Array>;
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  try {
    for (;;) {
      const chunk = await raceAbort(reader.read(), signal);
      if (chunk.done) return { text: text + decoder.decode(), cut: false };
      text += decoder.decode(chunk.value.subarray(0, limit - size), { stream: true });
      size += chunk.value.length;
      if (size > limit) {
        reader.cancel().catch(noop);
        return { text: text + decoder.decode(), cut: true };
      }
    }
  } catch (error) {
    reader.cancel().catch(noop);
    if (signal.aborted) throw abortedError(signal, taskId);
    throw new TaskwireError('network', 'The connection broke while the answer was being read.', {
      taskId,
      cause: error,
    });
  }
}

/**
 * The error for a non-2xx answer (`error-answer.ts`). Should that code fail to load, the error
 * still has its status, and so its `retryable`, without the body.
 */
export function errorFromResponse(
  response: Response,
  signal: AbortSignal,
  taskId?: string,
): Promise<TaskwireError> {
  return loadErrorAnswers().then(
    (errorAnswers) => errorAnswers.errorFromResponse(response, signal, taskId),
    () =>
      new TaskwireError('http', `The service answered ${response.status}.`, {
        status: response.status,
        taskId,
      }),
  );
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

/** How to read one JSON answer. */
export interface ReadOptions {
  signal: AbortSignal;
  /** Which answer this is, for messages: "The answer to Get Result 'echo'". */
  what: string;
  /** The largest answer read, in bytes. */
  maxBytes: number;
  /** The task the answer concerns, when known. */
  taskId?: string | undefined;
}

/**
 * Reads a 2xx JSON answer and validates its envelope and response, resolving to the response.
 * A non-2xx answer rejects with {@link errorFromResponse}; one larger than `maxBytes` is refused as
 * `protocol` while it is read.
 */
export async function readEnvelope<Schema extends z.ZodMiniType>(
  response: Response,
  schema: Schema,
  { signal, what, maxBytes, taskId }: ReadOptions,
): Promise<z.infer<Schema>> {
  if (!response.ok) throw await errorFromResponse(response, signal, taskId);
  const { text, cut } = await readCapped(response, maxBytes, signal, taskId);
  if (cut) throw protocolError(what, `the answer is larger than ${maxBytes} bytes.`, taskId);
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
