/**
 * The one shape every helper of `taskwire/testing` needs of a service, and the way two of them put
 * a `fetch` of their own in front of one while keeping the rest of it.
 */
import { matchRoute, methodOf, type Route } from '../protocol/match-route.js';

/**
 * Anything that answers requests like the reference service does: the reference service itself,
 * or a service from `withFaults` or `recordRequests`.
 */
export interface FetchService {
  /** Answers one request. */
  fetch(request: Request): Promise<Response>;
}

/**
 * `service` with `fetch` in place of its own and `extra` added; every other member is the
 * original's (methods bound to it, so `close()` closes the original).
 */
export function replaceFetch<Service extends FetchService, Extra extends object>(
  service: Service,
  fetch: (request: Request) => Promise<Response>,
  extra: Extra,
): Service & Extra {
  return new Proxy(service, {
    get(target, key) {
      if (key === 'fetch') return fetch;
      if (Object.hasOwn(extra, key)) return Reflect.get(extra, key);
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  }) as Service & Extra;
}

/**
 * The endpoint `request` names, whatever path prefix the service lives under: the prefix is what
 * stands before the endpoint's own three (or, for Get Result, four) path segments
 * (docs/protocol.md, "Paths and names"). Requests with another method (a CORS preflight) name none.
 */
export function routeOf(request: Request): Route | undefined {
  const { pathname } = new URL(request.url);
  const segments = pathname.split('/');
  const depth = segments.at(-1) === 'result' ? 4 : 3;
  if (segments.length <= depth) return undefined;
  const route = matchRoute(pathname, segments.slice(0, -depth).join('/'));
  return route !== undefined && request.method === methodOf(route.endpoint) ? route : undefined;
}
