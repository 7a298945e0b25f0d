/**
 * `recordRequests`: a log of what reached a service, so a test can say "one Submit only", "the
 * retry carried the same idempotency key" or "nothing polled after unmount" as facts about the
 * requests, without a `fetch` wrapper of its own. Tokens are never recorded.
 */
import type { Endpoint } from '../protocol/match-route.js';
import { replaceFetch, routeOf, type FetchService } from './fetch-service.js';

/** One request that reached the service, in the order they arrived. */
export interface RecordedRequest {
  /** The HTTP method, such as `'POST'`. */
  method: string;
  /** The URL's path, such as `'/workflows/echo/submit'`. */
  path: string;
  /** The endpoint the request names, or `undefined` for any other request (a CORS preflight, an unknown path). */
  endpoint: Endpoint | undefined;
  /** The task name in the path, or `undefined` when it names no endpoint. */
  task: string | undefined;
  /** The `Idempotency-Key` header (docs/protocol.md, "Idempotency"), or `null` without one. */
  idempotencyKey: string | null;
  /** The request's JSON body (for the POST endpoints, `{ params, … }`), or `undefined` without one. */
  body: unknown;
  /** Whether the request's signal has aborted by now (the client gave up on it); read when asked. */
  readonly aborted: boolean;
  /**
   * When the request arrived, as `Date.now()` (the fake clock under fake timers), so a test can
   * check the gaps between polls.
   */
  at: number;
  /**
   * The service's answer, once it gave one: its status, its headers (`Retry-After`, `Location`,
   * `x-task-id`) and, for a JSON answer, its body (a stream's body is not read). `undefined` while
   * the request waits, and when the call rejected.
   */
  answer?: { status: number; headers: Headers; body?: unknown };
}

/** What {@link recordRequests} adds to a service. */
export interface RequestLog {
  /** Every request so far, oldest first; the array grows as requests arrive. */
  readonly requests: readonly RecordedRequest[];
}

/** The JSON body of `message`, read from a clone, or `undefined` when it has none or no JSON. */
async function readJson(message: Request | Response): Promise<unknown> {
  const type = message.headers.get('content-type') ?? '';
  if (message.body === null || !type.startsWith('application/json')) return undefined;
  return message
    .clone()
    .json()
    .catch(() => undefined);
}

/**
 * A service of the same shape as `service` that records every request its `fetch` is given in
 * `requests`, with the answer the service gave. Put it inside `withFaults` to see what the service
 * itself answered (a lost answer included), outside to see what the faults let through.
 */
export function recordRequests<Service extends FetchService>(
  service: Service,
): Service & RequestLog {
  const requests: RecordedRequest[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    const route = routeOf(request);
    const { signal } = request;
    const entry: RecordedRequest = {
      method: request.method,
      path: new URL(request.url).pathname,
      endpoint: route?.endpoint,
      task: route?.taskName,
      idempotencyKey: request.headers.get('idempotency-key'),
      body: undefined,
      get aborted() {
        return signal.aborted;
      },
      at: Date.now(),
    };
    // Listed on arrival, before anything is awaited, so the log keeps the order requests came in.
    requests.push(entry);
    entry.body = await readJson(request);
    const response = await service.fetch(request);
    const body = await readJson(response);
    const { status, headers } = response;
    entry.answer = body === undefined ? { status, headers } : { status, headers, body };
    return response;
  };
  return replaceFetch(service, fetch, { requests });
}
