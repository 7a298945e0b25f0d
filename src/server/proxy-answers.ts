/**
 * The answers the proxy makes itself: its refusals, in the protocol's error body (docs/protocol.md,
 * "Error bodies"), the answers of the service it never passes on, and the headers of the service's
 * answers that may reach the browser.
 */
import { isEventStreamMediaType, isJsonMediaType } from '../protocol/media-types.js';

/**
 * Every `reason` the proxy answers with on its own (docs/protocol.md, "The server proxy"): the
 * protocol's own for what it refuses before the service is asked, those of the reads it serves from
 * its event log (docs/protocol.md, "Resumable streams (0.4)"), and four of its own for what went
 * wrong between it and the service.
 */
export type TaskProxyErrorReason =
  | 'INVALID_HEADER'
  | 'EVENTS_EXPIRED'
  | 'EVENTS_UNAVAILABLE'
  | 'INVALID_FOLLOW'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'TASK_NOT_FOUND'
  | 'RESULT_NOT_FOUND'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'PAYLOAD_TOO_LARGE'
  | 'MALFORMED_BODY'
  | 'UNAUTHENTICATED'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'REQUEST_TIMEOUT'
  | 'UPSTREAM_REDIRECT'
  | 'UPSTREAM_NOT_JSON'
  | 'UPSTREAM_TIMEOUT'
  | 'UPSTREAM_UNAVAILABLE'
  | 'INTERNAL';

/** The headers of every JSON answer of the protocol: a record changes from one poll to the next. */
const JSON_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
};

/**
 * `answer` with `X-Content-Type-Options: nosniff`, so that no browser reads a body of the service as
 * a page of the app's origin whatever its content type says (docs/protocol.md, "The server proxy").
 * Headers of a `Response` may be immutable (one from `fetch`), so the answer is made again around
 * the same body, with the `extra` headers of every answer (the proxy's `x-taskwire-resumable`).
 */
export function withNoSniff(
  answer: Response,
  extra: Readonly<Record<string, string>> = {},
): Response {
  const headers = new Headers(answer.headers);
  headers.set('x-content-type-options', 'nosniff');
  for (const [name, value] of Object.entries(extra)) headers.set(name, value);
  return new Response(answer.body, {
    status: answer.status,
    statusText: answer.statusText,
    headers,
  });
}

/** A refusal of the proxy's own, with the protocol's error body and any extra headers. */
export function proxyError(
  statusCode: number,
  reason: TaskProxyErrorReason,
  message: string,
  headers: Readonly<Record<string, string>> = {},
): Response {
  const body = JSON.stringify({ status: 'error', statusCode, reason, message });
  return new Response(body, { status: statusCode, headers: { ...JSON_HEADERS, ...headers } });
}

/**
 * The proxy's own answer to a request that `method` (an endpoint's, or a read's) does not take, or
 * `undefined` for a request of that method: a preflight is answered 204 with `Allow`, since the
 * proxy serves the app's own origin and a preflight learns the methods and nothing that would let
 * another origin's page call it (docs/protocol.md, "The server proxy"); any other method is 405.
 */
export function refusalOfMethod(request: Request, method: 'GET' | 'POST'): Response | undefined {
  const allow = `${method}, OPTIONS`;
  if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: { allow } });
  if (request.method === method) return undefined;
  return proxyError(
    405,
    'METHOD_NOT_ALLOWED',
    `This endpoint takes ${method}, not ${request.method.slice(0, 16)}.`,
    { allow },
  );
}

/**
 * The proxy's answer to a short start (docs/protocol.md, "Resumable streams (0.4)"): Submit's 202
 * for task `id`, with `Location` at the proxy's own Get Result of it.
 */
export function proxyAccepted(location: string, id: string): Response {
  const body = JSON.stringify({ status: 'success', response: { id, status: 'ACCEPTED' } });
  return new Response(body, {
    status: 202,
    headers: {
      ...JSON_HEADERS,
      location,
      'x-task-id': id,
      'preference-applied': 'respond-async',
    },
  });
}

/** Statuses whose answers never have a body. */
export const BODILESS_STATUSES: ReadonlySet<number> = new Set([101, 204, 205, 304]);

/** Why the proxy answers 502 instead of an answer of the service. */
export interface AnswerRefusal {
  /** The reason of the 502. */
  reason: 'UPSTREAM_REDIRECT' | 'UPSTREAM_NOT_JSON';
  /** The message of the 502. */
  message: string;
}

/**
 * Why an answer of the service must not reach the browser, or `undefined` when it may
 * (docs/protocol.md, "The server proxy"): a redirect would carry both tokens to wherever it points,
 * and a page (anything but JSON or an event stream, whatever its status) would be served on the
 * app's origin with the user's session, an error page that echoes the path running its script.
 */
export function refusalOfAnswer(response: Response): AnswerRefusal | undefined {
  if (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)) {
    return {
      reason: 'UPSTREAM_REDIRECT',
      message: 'The service answered with a redirect, which the proxy never follows.',
    };
  }
  const contentType = response.headers.get('content-type');
  if (
    !BODILESS_STATUSES.has(response.status) &&
    !isJsonMediaType(contentType) &&
    !isEventStreamMediaType(contentType)
  ) {
    return {
      reason: 'UPSTREAM_NOT_JSON',
      message: 'The service answered with neither JSON nor an event stream.',
    };
  }
  return undefined;
}

/**
 * The headers of the service's answer that reach the browser: what the client reads (the
 * content type, `x-task-id`, `retry-after`, `location`, `allow`) and `cache-control`. Nothing else
 * passes: no `set-cookie` of the service on the app's origin, no `content-encoding` or
 * `content-length` of a body that `fetch` has already decoded, no CORS headers of another origin.
 */
export const PASSED_ANSWER_HEADERS: readonly string[] = [
  'content-type',
  'cache-control',
  'retry-after',
  'x-task-id',
  'allow',
];

/**
 * The request headers that go to the service besides the two tokens (docs/protocol.md, "Headers and
 * tokens"), and what a stream's reader sends; never a cookie.
 */
export const PASSED_REQUEST_HEADERS: readonly string[] = [
  'platform',
  'x-touchpoint',
  'idempotency-key',
  'content-type',
  'accept',
  'last-event-id',
];
