/**
 * The reference server's request log (`taskwire-reference --log`, `startReferenceServer`'s
 * `onRequest`): what each request asked and what it was answered, taken from the request line and
 * the answer's status only. Never a header, a body or a query string, so no token or secret a
 * request carries reaches a log.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** One request the server answered, as `startReferenceServer`'s `onRequest` is told of it. */
export interface ServedRequest {
  /** The HTTP method, such as `'POST'`. */
  method: string;
  /**
   * The request's path without its query string or fragment, such as `'/workflows/echo/submit'`;
   * characters outside printable ASCII are percent-encoded, and a path past 300 characters is cut.
   */
  path: string;
  /** The status of the answer, or `null` when the connection closed before an answer was sent. */
  status: number | null;
  /** Milliseconds from the request's arrival to the end of its answer, or of its connection. */
  durationMs: number;
  /**
   * Whether the connection closed before the answer was complete: a page that went away, or a
   * stream cut because the server closed.
   */
  aborted: boolean;
}

/** The longest path a log line shows; node's own limit on a request line is about 16 KiB. */
const MAX_LOGGED_PATH = 300;

/** The path of a request target, as a log may show it (see {@link ServedRequest.path}). */
function loggedPath(target: string): string {
  let path = target;
  // The absolute form (`GET http://host/path`), sent to proxies: its path only.
  if (!path.startsWith('/')) {
    try {
      path = new URL(path).pathname;
    } catch {
      path = '/';
    }
  }
  path = path.split(/[?#]/, 1)[0] ?? '/';
  // Nothing a request sent may write to a terminal or split a line of the log (node's parser
  // refuses such bytes in a request line today; the log does not rely on it).
  path = path.replace(
    /[^\x21-\x7e]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
  return path.length > MAX_LOGGED_PATH ? `${path.slice(0, MAX_LOGGED_PATH)}…` : path;
}

/**
 * Tells `onRequest` about `incoming` once its connection is done with it (the answer sent, or the
 * connection gone); a listener that throws is reported to `onError`, never to the request.
 */
export function watchServedRequest(
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  onRequest: (served: ServedRequest) => void,
  onError: (error: unknown) => void,
): void {
  const startedAt = performance.now();
  outgoing.once('close', () => {
    const served: ServedRequest = {
      method: incoming.method ?? 'GET',
      path: loggedPath(incoming.url ?? '/'),
      status: outgoing.headersSent ? outgoing.statusCode : null,
      durationMs: Math.round(performance.now() - startedAt),
      aborted: !outgoing.writableFinished,
    };
    try {
      onRequest(served);
    } catch (error) {
      onError(error);
    }
  });
}

/** A request as one line of `taskwire-reference --log`: `POST /workflows/echo/submit 202 3 ms`. */
export function formatServedRequest(served: ServedRequest): string {
  const status = served.status === null ? '-' : String(served.status);
  const closed = served.aborted ? ' (closed early)' : '';
  return `${served.method} ${served.path} ${status} ${served.durationMs} ms${closed}`;
}
