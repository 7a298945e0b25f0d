/**
 * The bridge between `node:http` and a Web-standard `fetch(request) → Response` handler: the request
 * body streams in (never buffered whole), the response body streams out with backpressure, and a
 * client that goes away aborts the request's signal and cancels the response body.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { JSON_HEADERS, errorBody } from '../json-response.js';
import { ServiceError } from '../service-error.js';
import { forbiddenMethodAnswer, isForbiddenMethod } from './forbidden-method.js';

/** A Web-standard request handler, such as the reference service's `fetch`. */
export type FetchHandler = (request: Request) => Response | Promise<Response>;

/**
 * An object with a Web-standard `fetch` handler: the reference service, or a proxy from
 * `taskwire/server`'s `createTaskProxy`.
 */
export interface FetchHandlerHolder {
  /** Answers one request. */
  fetch(request: Request): Response | Promise<Response>;
}

/** A `node:http` request listener, as `http.createServer` and connect middlewares take it. */
export type NodeRequestListener = (
  incoming: IncomingMessage,
  outgoing: ServerResponse,
) => Promise<void>;

/** Options of {@link createNodeHandler}. */
export interface NodeHandlerOptions {
  /**
   * A path the handler is mounted under (such as `/taskwire`), put in front of every `Location`
   * header that starts with `/`, so a client that follows it reaches the handler again. The incoming
   * path is not touched: whoever mounts the handler strips the prefix. Defaults to `''`.
   */
  pathPrefix?: string;
  /**
   * Told about a handler that threw or returned no `Response`; the client only ever sees the
   * `INTERNAL` error body, never this error. Defaults to writing the error to `console.error`.
   */
  onError?: (error: unknown) => void;
}

/** How many bytes of request body wait in the stream's queue before the socket is paused. */
const REQUEST_BODY_HIGH_WATER_MARK = 64 * 1024;

/**
 * The body of the answer to a handler that failed (docs/protocol.md, "Error bodies"), with nothing
 * of the error in it.
 */
const INTERNAL_ERROR_BODY = JSON.stringify(
  errorBody(new ServiceError(500, 'INTERNAL', 'The service failed to answer this request.')),
);

/** Statuses whose answers never have a body (RFC 9110). */
const BODILESS_STATUSES = new Set([101, 204, 205, 304]);

/** A host header we are willing to put in a URL; anything else is replaced by `localhost`. */
const SAFE_HOST_PATTERN = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

function writeErrorToConsole(error: unknown): void {
  console.error('taskwire: the request handler failed:', error);
}

/**
 * Builds a `node:http` request listener (for `http.createServer`, Express or connect) that answers
 * every request with `handler` (a `fetch` function, or an object with one, such as a proxy of
 * `taskwire/server`), streaming both bodies. A handler that throws is answered 500 with the `INTERNAL` error body and no stack. A
 * method no Web `Request` may have (`TRACE`) is answered from the handler's answer to `OPTIONS` on
 * the same path: 405 with its `Allow`, or its own answer (404) when the path is none of its.
 */
export function createNodeHandler(
  handlerOrHolder: FetchHandler | FetchHandlerHolder,
  options: NodeHandlerOptions = {},
): NodeRequestListener {
  const handler: FetchHandler =
    typeof handlerOrHolder === 'function'
      ? handlerOrHolder
      : (request) => handlerOrHolder.fetch(request);
  const pathPrefix = options.pathPrefix ?? '';
  const onError = options.onError ?? writeErrorToConsole;

  return async function handleNodeRequest(incoming, outgoing) {
    const abortController = new AbortController();
    // `close` without `finish` means the connection went away before the answer was complete.
    outgoing.once('close', () => {
      if (!outgoing.writableFinished) abortController.abort();
    });

    let response: Response;
    try {
      const method = incoming.method ?? 'GET';
      if (isForbiddenMethod(method)) {
        const allowed = await answerOf(handler, toOptionsRequest(incoming, abortController.signal));
        response = await forbiddenMethodAnswer(method, allowed);
      } else {
        response = await answerOf(handler, toWebRequest(incoming, abortController.signal));
      }
    } catch (error) {
      if (abortController.signal.aborted) return;
      onError(error);
      response = new Response(INTERNAL_ERROR_BODY, { status: 500, headers: JSON_HEADERS });
    }
    await writeWebResponse(response, incoming, outgoing, { pathPrefix });
  };
}

/** The handler's answer to `request`; throws when it is not a `Response`. */
async function answerOf(handler: FetchHandler, request: Request): Promise<Response> {
  const response = await handler(request);
  if (!(response instanceof Response)) {
    throw new TypeError('The request handler did not return a Response.');
  }
  return response;
}

/** The headers of a node request as Fetch API headers. */
function webHeaders(incoming: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = incoming.rawHeaders;
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = raw[index] as string;
    // HTTP/2 pseudo-headers (`:path`) are not headers of the Fetch API.
    if (name.startsWith(':')) continue;
    // `append` joins repeated headers with `, ` as the Fetch API defines.
    headers.append(name, raw[index + 1] as string);
  }
  return headers;
}

/**
 * A plain `OPTIONS` request, without a body, for the path and headers of `incoming`: the question
 * of what the path allows. The CORS request headers are left out, so it is never read as a
 * preflight.
 */
function toOptionsRequest(incoming: IncomingMessage, signal: AbortSignal): Request {
  const headers = webHeaders(incoming);
  headers.delete('access-control-request-method');
  headers.delete('access-control-request-headers');
  return new Request(requestUrl(incoming), { method: 'OPTIONS', headers, signal });
}

/** Turns a node request into a Web `Request` whose body streams from the socket. */
function toWebRequest(incoming: IncomingMessage, signal: AbortSignal): Request {
  const method = incoming.method ?? 'GET';
  const headers = webHeaders(incoming);
  const hasBody = method !== 'GET' && method !== 'HEAD' && requestHasBody(incoming);
  const init: RequestInit & { duplex?: 'half' } = { method, headers, signal };
  if (hasBody) {
    init.body = requestBodyStream(incoming);
    // Required by the Fetch API for a streaming request body.
    init.duplex = 'half';
  }
  return new Request(requestUrl(incoming), init);
}

/** Whether the request announced a body (a non-zero `Content-Length` or a `Transfer-Encoding`). */
function requestHasBody(incoming: IncomingMessage): boolean {
  if (incoming.headers['transfer-encoding'] !== undefined) return true;
  const length = incoming.headers['content-length'];
  return length !== undefined && length !== '0';
}

/** The absolute URL of a request, keeping its path exactly as sent (`//x` stays a path). */
function requestUrl(incoming: IncomingMessage): string {
  const host = incoming.headers.host;
  const origin = `http://${host !== undefined && SAFE_HOST_PATTERN.test(host) ? host : 'localhost'}`;
  const target = incoming.url ?? '/';
  if (target.startsWith('/')) return origin + target;
  // The absolute form (`GET http://host/path`), sent to proxies: keep only its path and query.
  try {
    const absolute = new URL(target);
    return origin + absolute.pathname + absolute.search;
  } catch {
    return `${origin}/`;
  }
}

/**
 * A `ReadableStream` over the request body that reads from the socket only as fast as the handler
 * reads from the stream, and stops reading (pauses, never drains the rest) when it is cancelled.
 */
function requestBodyStream(incoming: IncomingMessage): ReadableStream<Uint8Array> {
  let detach = (): void => {};
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const onData = (chunk: Buffer): void => {
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) incoming.pause();
        };
        const onEnd = (): void => {
          detach();
          controller.close();
        };
        const onIncomingError = (error: Error): void => {
          detach();
          controller.error(error);
        };
        const onClose = (): void => {
          if (incoming.complete) return;
          detach();
          controller.error(
            new Error('The client closed the connection before sending the whole body.'),
          );
        };
        detach = () => {
          incoming.off('data', onData);
          incoming.off('end', onEnd);
          incoming.off('error', onIncomingError);
          incoming.off('close', onClose);
        };
        // Paused before the `data` listener goes on, so nothing is read until the first `pull`.
        incoming.pause();
        incoming.on('data', onData);
        incoming.on('end', onEnd);
        incoming.on('error', onIncomingError);
        incoming.on('close', onClose);
      },
      pull() {
        incoming.resume();
      },
      cancel() {
        // The handler has read enough (a body over the limit): stop reading. The socket is not
        // destroyed here, since the answer (413) still has to go out on it.
        detach();
        incoming.pause();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: REQUEST_BODY_HIGH_WATER_MARK }),
  );
}

interface WriteOptions {
  pathPrefix: string;
}

/** Writes the status, headers and body of `response`, the body chunk by chunk with backpressure. */
async function writeWebResponse(
  response: Response,
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  { pathPrefix }: WriteOptions,
): Promise<void> {
  const body = response.body;
  if (outgoing.destroyed || outgoing.headersSent) {
    await body?.cancel().catch(() => {});
    return;
  }

  outgoing.statusCode = response.status;
  if (response.statusText !== '') outgoing.statusMessage = response.statusText;
  for (const [name, value] of response.headers) {
    if (name === 'set-cookie') continue;
    outgoing.setHeader(name, name === 'location' ? prefixLocation(value, pathPrefix) : value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) outgoing.setHeader('set-cookie', cookies);

  const bodyUnread = !incoming.complete;
  if (bodyUnread) {
    // The handler answered without reading the whole request body (a 413, a 415): this connection
    // cannot carry another request, so say so and close it once the answer is out.
    outgoing.setHeader('connection', 'close');
  }

  if (body === null || incoming.method === 'HEAD' || BODILESS_STATUSES.has(response.status)) {
    await body?.cancel().catch(() => {});
    outgoing.end();
    return;
  }

  const reader = body.getReader();
  const onClose = (): void => {
    // The client went away: cancel the body, so the stream's `cancel` runs and it stops producing.
    if (!outgoing.writableFinished) reader.cancel().catch(() => {});
  };
  outgoing.once('close', onClose);
  // A body that errors while we wait for `drain` (a client that does not read) would otherwise be
  // noticed only at the next read, which waits for that client: cut the connection at once.
  reader.closed.catch(() => cutConnection(outgoing));
  let next = reader.read();
  // A body that is ready at once (a JSON answer) goes out with the headers in one write; for one
  // that is not (a stream whose first event may be seconds away), the headers go now, so the
  // client has the status and `x-task-id` without waiting.
  const readyAtOnce = await Promise.race([
    next.then(
      () => true,
      () => true,
    ),
    new Promise<false>((resolve) => setImmediate(resolve, false)),
  ]);
  try {
    if (!readyAtOnce) outgoing.flushHeaders();
    for (;;) {
      const { done, value } = await next;
      if (done || outgoing.destroyed) break;
      if (!outgoing.write(value)) await drainedOrClosed(outgoing);
      next = reader.read();
    }
    if (!outgoing.destroyed) outgoing.end();
  } catch {
    // A body that errors after the headers went out is how a handler breaks a stream off (the
    // reference service does so to drop a client that reads too slowly): cut the connection, so the
    // client sees a cut answer rather than one that looks complete. Not reported to `onError`.
    cutConnection(outgoing);
  } finally {
    outgoing.off('close', onClose);
  }
}

/**
 * Destroys the connection on the next turn of the event loop: node holds the first write of an
 * answer back (corked) until the end of the tick, and what was written should still reach a client
 * that reads before the connection is cut.
 */
function cutConnection(outgoing: ServerResponse): void {
  setImmediate(() => outgoing.destroy());
}

/** Resolves when the socket has room again or the connection is gone, whichever comes first. */
function drainedOrClosed(outgoing: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const settle = (): void => {
      outgoing.off('drain', settle);
      outgoing.off('close', settle);
      resolve();
    };
    outgoing.on('drain', settle);
    outgoing.on('close', settle);
  });
}

function prefixLocation(location: string, pathPrefix: string): string {
  if (pathPrefix === '' || !location.startsWith('/') || location.startsWith('//')) return location;
  return pathPrefix.replace(/\/+$/, '') + location;
}
