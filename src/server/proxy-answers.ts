/**
 * The answers the proxy makes itself: its refusals, in the protocol's error body (docs/protocol.md,
 * "Error bodies"), and the headers of the service's answers that may reach the browser.
 */

/**
 * Every `reason` the proxy answers with on its own (docs/protocol.md, "The server proxy"): the
 * protocol's own for what it refuses before the service is asked, and three of its own for what went
 * wrong between it and the service.
 */
export type TaskProxyErrorReason =
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'TASK_NOT_FOUND'
  | 'RESULT_NOT_FOUND'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'PAYLOAD_TOO_LARGE'
  | 'MALFORMED_BODY'
  | 'UPSTREAM_REDIRECT'
  | 'UPSTREAM_TIMEOUT'
  | 'UPSTREAM_UNAVAILABLE'
  | 'INTERNAL';

/** The headers of every JSON answer of the protocol: a record changes from one poll to the next. */
const JSON_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
};

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
