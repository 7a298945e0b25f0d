/**
 * CORS, so that a page on another origin can call the service: the headers added to every answer,
 * and the answer to an `OPTIONS` request, which needs no token (docs/protocol.md, "Headers and
 * tokens").
 */

/** The request headers a cross-origin page may send. */
const ALLOWED_REQUEST_HEADERS =
  'authorization, x-app-authorization, content-type, platform, x-touchpoint, idempotency-key';

/**
 * The answer to an `OPTIONS` request on an endpoint that takes `allow` (such as `POST, OPTIONS`): a
 * CORS preflight is told what it may send; a plain `OPTIONS` just lists the methods.
 */
export function optionsRequestResponse(request: Request, allow: string): Response {
  const headers: Record<string, string> = { allow };
  if (request.headers.has('access-control-request-method')) {
    headers['access-control-allow-methods'] = allow;
    headers['access-control-allow-headers'] = ALLOWED_REQUEST_HEADERS;
    headers['access-control-max-age'] = '600';
  }
  return new Response(null, { status: 204, headers });
}

/**
 * Adds the CORS headers for `request` to `response`: the headers a page may read, and the allowed
 * origin (`*`, or the request's own origin when it is listed).
 */
export function addCorsHeaders(
  response: Response,
  request: Request,
  corsOrigins: '*' | readonly string[],
): Response {
  response.headers.set('access-control-expose-headers', 'x-task-id, location, retry-after');
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
