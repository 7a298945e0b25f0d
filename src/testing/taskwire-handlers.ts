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
 * Whether the answers go to the page through a service worker (msw's `setupWorker`), not straight
 * to the caller of `fetch` as under msw's Node server (or msw's in-page fallback).
 */
function answersThroughServiceWorker(): boolean {
  return typeof navigator !== 'undefined' && navigator.serviceWorker?.controller != null;
}

/**
 * `response` with its event stream passed on chunk by chunk as the reader downstream asks, and a
 * body that fails passed on as a body that ends; for answers that go through a service worker.
 * The worker takes the body as fast as it comes and hands it on to the page's `fetch`, and when
 * the worker's answer fails, Chromium fails the page's body at once, throwing away every byte the
 * page's reader has not taken yet: a break right after an event overtook the event, and a reader
 * that came late lost every event. An end comes after every byte, so the reader gets all the
 * events the service wrote, then the end of the body, which the client reports as a `network`
 * error as well (docs/protocol.md, "Streams"). Any other answer passes unchanged.
 */
function endingWhereItBreaks(response: Response): Response {
  const contentType = response.headers.get('content-type') ?? '';
  if (response.body === null || !contentType.startsWith('text/event-stream')) return response;
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch {
          controller.close();
          return;
        }
        if (chunk.done) controller.close();
        else controller.enqueue(chunk.value);
      },
      cancel: (reason) => reader.cancel(reason),
    },
    // No read ahead: the service writes its next event only when the reader downstream asks.
    new CountQueuingStrategy({ highWaterMark: 0 }),
  );
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/**
 * Request handlers of msw 2 that answer every request to the service's paths under `baseUrl` (the
 * five endpoints below `/workflows/`, and `/openapi.json`) with `service.fetch`, as the service
 * answers it (404, 405 and CORS preflights included). A stream's body is the service's own
 * `ReadableStream` (through a service worker, read from it one chunk per read downstream), so
 * events arrive one by one, never buffered; a stream that breaks (`cutAfterEvents`) fails after
 * its last event as a broken connection does, or, through msw's service worker in a browser, ends
 * there instead (a failure would overtake its last events in the page). A call that rejects as a
 * network error (a `TypeError`, or an abort) becomes `HttpResponse.error()`. Throws a `TypeError`
 * for a `baseUrl` that is not an absolute http(s) URL, and an `Error` that says how to install msw
 * when the app does not have it.
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
      const response = await service.fetch(request);
      // Asked at each answer: an app may create the handlers before it starts the worker.
      return answersThroughServiceWorker() ? endingWhereItBreaks(response) : response;
    } catch (error) {
      if (isConnectionError(error)) return HttpResponse.error();
      throw error;
    }
  };
  return [http.all(`${prefix}/workflows/*`, answer), http.all(`${prefix}/openapi.json`, answer)];
}
