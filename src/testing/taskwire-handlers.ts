/**
 * `taskwireHandlers`: the service behind Mock Service Worker (msw 2), so an app's real `fetch`,
 * in Node or in a browser, reaches an in-process service at a URL of the test's choosing. Every
 * answer is the service's own Response, streams included, passed on as the service writes them.
 */
import type * as Msw from 'msw';
import type { HttpHandler } from 'msw';
import type { FetchService } from './fetch-service.js';

/**
 * msw, when the app has installed it (an optional peer: only `taskwireHandlers` needs it), else
 * why it could not be loaded. Loaded as this module loads, so `taskwireHandlers` stays synchronous
 * and `taskwire/testing` loads in an app without msw.
 */
const msw: typeof Msw | { missing: unknown } = await import('msw').catch((error: unknown) => ({
  missing: error,
}));

/** Options of {@link taskwireHandlers}. */
export interface TaskwireHandlersOptions {
  /**
   * Where the app's client sends its requests, such as `'http://taskwire.test'`: an origin, and a
   * path when the service has a `basePath` (the same path).
   */
  baseUrl: string;
}

/** Whether `error` is what a `fetch` rejects with when no answer comes: lost, or aborted. */
function isConnectionError(error: unknown): boolean {
  return (
    error instanceof TypeError ||
    (typeof error === 'object' &&
      error !== null &&
      'name' in error &&
      (error.name === 'AbortError' || error.name === 'TimeoutError'))
  );
}

/**
 * Request handlers of msw 2 that answer every request to the service's paths under `baseUrl` (the
 * five endpoints below `/workflows/`, and `/openapi.json`) with `service.fetch`, as the service
 * answers it (404, 405 and CORS preflights included). A stream's body is the service's own
 * `ReadableStream`, so events arrive one by one, never buffered; a call that rejects as a network
 * error (a `TypeError`, or an abort) becomes `HttpResponse.error()`. Throws a `TypeError` for a
 * `baseUrl` that is not an absolute http(s) URL, and an `Error` that says how to install msw when
 * the app does not have it.
 */
export function taskwireHandlers(
  service: FetchService,
  { baseUrl }: TaskwireHandlersOptions,
): HttpHandler[] {
  if ('missing' in msw) {
    const why = msw.missing instanceof Error ? ` (${msw.missing.message})` : '';
    throw new Error(
      `taskwireHandlers needs Mock Service Worker (msw 2), an optional peer of taskwire that could not be loaded${why}. Install it in the app's devDependencies: npm install --save-dev msw@2. The rest of taskwire/testing works without it.`,
      { cause: msw.missing },
    );
  }
  const { http, HttpResponse } = msw;
  const refused = () =>
    new TypeError(
      `taskwireHandlers: baseUrl must be an absolute http(s) URL, the one the app's client calls (such as 'http://taskwire.test'), not ${JSON.stringify(baseUrl)}.`,
    );
  let base: URL;
  try {
    base = new URL(baseUrl);
  } catch {
    throw refused();
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') throw refused();
  const prefix = `${base.origin}${base.pathname.replace(/\/+$/, '')}`;
  const answer = async ({ request }: { request: Request }): Promise<Response> => {
    try {
      return await service.fetch(request);
    } catch (error) {
      if (isConnectionError(error)) return HttpResponse.error();
      throw error;
    }
  };
  return [http.all(`${prefix}/workflows/*`, answer), http.all(`${prefix}/openapi.json`, answer)];
}
