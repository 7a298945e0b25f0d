/**
 * CORS, so that a page on another origin can call the service: the headers added to every answer,
 * and the answer to an `OPTIONS` request, which needs no token (docs/protocol.md, "Headers and
 * tokens").
 */

import { RESUMABLE_HEADER } from '../protocol/resumable-streams.js';

/** The request headers a cross-origin page may send. */
const ALLOWED_REQUEST_HEADERS =
  'authorization, x-app-authorization, content-type, platform, x-touchpoint, idempotency-key';
/** …and those of resumable streams (docs/protocol.md, "Resumable streams (0.4)"). */
const RESUMABLE_REQUEST_HEADERS = `${ALLOWED_REQUEST_HEADERS}, last-event-id, prefer`;
/** The answer headers a page may read. */
export const EXPOSED_HEADERS = 'x-task-id, location, retry-after';
/** How long a browser may keep a preflight's answer, in seconds. */
export const PREFLIGHT_MAX_AGE_SECONDS = 600;
/** …and those of resumable streams. */
const RESUMABLE_EXPOSED_HEADERS = `${EXPOSED_HEADERS}, ${RESUMABLE_HEADER}, preference-applied`;

/**
 * The answer to an `OPTIONS` request on an endpoint that takes `allow` (such as `POST, OPTIONS`): a
 * CORS preflight is told what it may send (the headers of resumable streams too when `resumable`);
 * a plain `OPTIONS` just lists the methods.
 */
export function optionsRequestResponse(
  request: Request,
  allow: string,
  resumable: boolean,
): Response {
  const headers: Record<string, string> = { allow };
  if (request.headers.has('access-control-request-method')) {
    headers['access-control-allow-methods'] = allow;
    headers['access-control-allow-headers'] = resumable
      ? RESUMABLE_REQUEST_HEADERS
      : ALLOWED_REQUEST_HEADERS;
    headers['access-control-max-age'] = String(PREFLIGHT_MAX_AGE_SECONDS);
  }
  return new Response(null, { status: 204, headers });
}

/**
 * Adds the CORS headers for `request` to `response`: the headers a page may read, and the allowed
 * origin (`*`, or the request's own origin when it is listed). A service that offers resumable
 * streams (`resumable`) says so on every answer, and lets a page read that and
 * `Preference-Applied`.
 */
export function addCorsHeaders(
  response: Response,
  request: Request,
  corsOrigins: '*' | readonly string[],
  resumable: boolean,
): Response {
  response.headers.set(
    'access-control-expose-headers',
    resumable ? RESUMABLE_EXPOSED_HEADERS : EXPOSED_HEADERS,
  );
  if (resumable) response.headers.set(RESUMABLE_HEADER, '1');
  if (corsOrigins === '*') {
    response.headers.set('access-control-allow-origin', '*');
  } else {
    response.headers.set('vary', 'Origin');
    const origin = request.headers.get('origin');
    if (origin !== null && corsOrigins.includes(origin)) {
      response.headers.set('access-control-allow-origin', origin);
    }
  }
  return response;
}
