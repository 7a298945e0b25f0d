/**
 * A browser's HTTP/1.1 connections to one host, in front of a service's `fetch`: at most `size`
 * requests (six, as browsers allow per host for all tabs together) hold a connection at once, from
 * the request until its answer's body has been read to its end, broke or was cancelled; any other
 * request waits for one to free, as in a browser. A platform stand-in (the limit the stream budget
 * exists for), not a mock of our code: the service behind it answers every request for real.
 */
import type { FetchService } from '../../src/testing/index.js';

/** A service behind a browser's connection limit, with what it saw. */
export interface BrowserConnections {
  /** The service's `fetch`, behind the limit. */
  fetch(request: Request): Promise<Response>;
  /** Streams open now (holding a connection). */
  readonly openStreams: number;
  /** The most streams that were open at once. */
  readonly maxOpenStreams: number;
  /** Requests waiting for a connection now. */
  readonly waiting: number;
}

/** Puts `service` behind a browser's limit of `size` connections per host. */
export function browserConnections(service: FetchService, size = 6): BrowserConnections {
  let busy = 0;
  const queue: (() => void)[] = [];
  let openStreams = 0;
  let maxOpenStreams = 0;

  /** Waits for a free connection; a request aborted meanwhile leaves the queue. */
  const connect = (signal: AbortSignal): Promise<void> => {
    if (busy < size) {
      busy++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const take = () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        queue.splice(queue.indexOf(take), 1);
        reject(new DOMException('The request was aborted.', 'AbortError'));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      queue.push(take);
    });
  };

  /** Hands the connection to the next waiting request, or frees it. */
  const disconnect = () => {
    const next = queue.shift();
    if (next !== undefined) next();
    else busy--;
  };

  return {
    async fetch(request) {
      const isStream = new URL(request.url).pathname.endsWith('/stream');
      await connect(request.signal);
      if (isStream) maxOpenStreams = Math.max(maxOpenStreams, ++openStreams);
      let closed = false;
      const close = () => {
        if (closed) return;
        closed = true;
        if (isStream) openStreams--;
        disconnect();
      };
      let response: Response;
      try {
        response = await service.fetch(request);
      } catch (error) {
        close();
        throw error;
      }
      if (response.body === null) {
        close();
        return response;
      }
      const reader = response.body.getReader();
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          try {
            const { done, value } = await reader.read();
            if (done) {
              close();
              controller.close();
            } else {
              controller.enqueue(value);
            }
          } catch (error) {
            close();
            controller.error(error);
          }
        },
        cancel(reason) {
          close();
          return reader.cancel(reason);
        },
      });
      return new Response(body, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    },
    get openStreams() {
      return openStreams;
    },
    get maxOpenStreams() {
      return maxOpenStreams;
    },
    get waiting() {
      return queue.length;
    },
  };
}
