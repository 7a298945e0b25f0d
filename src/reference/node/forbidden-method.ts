/**
 * Requests whose method the Fetch API forbids (`TRACE`, `TRACK`, `CONNECT`): a Web `Request` cannot
 * carry them, so the bridge cannot hand them to a `fetch` handler as they are. Rather than fail with
 * 500, the bridge asks the handler what the path allows, with the `OPTIONS` request HTTP defines for
 * that question (RFC 9110, section 9.3.7), and answers from that: the handler's own answer when the
 * path is none of its (the reference service's 404 `NOT_FOUND`), else 405 `METHOD_NOT_ALLOWED` with
 * the `Allow` the handler gave (docs/protocol.md, "Error bodies").
 */
import { JSON_HEADERS, errorBody } from '../json-response.js';
import { ServiceError } from '../service-error.js';

/** The methods no Web `Request` may have (Fetch, "forbidden method"), in upper case. */
const FORBIDDEN_METHODS: ReadonlySet<string> = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** Whether `method` is one a Web `Request` cannot be made with, in any case. */
export function isForbiddenMethod(method: string): boolean {
  return FORBIDDEN_METHODS.has(method.toUpperCase());
}

/** Whether a header of the handler's answer to `OPTIONS` belongs on the 405: `Allow` and CORS. */
function isCarriedOver(name: string): boolean {
  return name === 'allow' || name === 'vary' || name.startsWith('access-control-');
}

/**
 * The answer to a request with the forbidden `method`, from the handler's answer to `OPTIONS` on
 * the same path: that answer itself when it is not a success, else 405 `METHOD_NOT_ALLOWED` with its
 * `Allow` and CORS headers and the JSON error body.
 */
export async function forbiddenMethodAnswer(method: string, allowed: Response): Promise<Response> {
  if (!allowed.ok) return allowed;
  await allowed.body?.cancel().catch(() => {});
  const headers = new Headers(JSON_HEADERS);
  for (const [name, value] of allowed.headers) if (isCarriedOver(name)) headers.set(name, value);
  const error = new ServiceError(
    405,
    'METHOD_NOT_ALLOWED',
    `This endpoint does not take ${method.slice(0, 16)}; Allow names what it takes.`,
  );
  return new Response(JSON.stringify(errorBody(error)), { status: 405, headers });
}
