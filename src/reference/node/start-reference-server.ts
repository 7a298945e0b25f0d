/**
 * `startReferenceServer`: the reference service on a real `node:http` socket (docs/protocol.md, "The
 * reference service"), loopback by default, for tests, demos and the command line. Even the errors
 * node's own HTTP parser finds are answered with the protocol's JSON error body.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createReferenceService } from '../index.js';
import { answerClientErrors } from './answer-client-errors.js';
import { createNodeHandler } from './node-handler.js';
import { watchServedRequest, type ServedRequest } from './served-request.js';

/**
 * What the adapters need of a service: a Web `fetch` handler, and a way to close it if it has one
 * (the reference service does; a proxy of `taskwire/server` has nothing to close).
 */
export interface MountableService {
  /** Answers one request. */
  fetch(request: Request): Response | Promise<Response>;
  /** Stops the service: aborts running tasks and frees their timers. Optional. */
  close?(): void | Promise<void>;
}

/** Options of {@link startReferenceServer}. */
export interface StartReferenceServerOptions {
  /** The port to listen on; `0` picks a free one. Defaults to `0`. */
  port?: number;
  /** The address to listen on. Defaults to `'127.0.0.1'` (loopback only). */
  host?: string;
  /**
   * The service to serve (any `{ fetch }`, such as a proxy of `taskwire/server`); closed with the
   * server when it has a `close`. Defaults to `createReferenceService()`.
   */
  service?: MountableService;
  /** Told about a handler failure (the client sees only `INTERNAL`). Defaults to `console.error`. */
  onError?: (error: unknown) => void;
  /**
   * Told about each request once its answer has ended (or its connection closed): method, path
   * without the query string, status and milliseconds, never a header or a body, so no token.
   * `taskwire-reference --log` prints these. Defaults to none.
   */
  onRequest?: (served: ServedRequest) => void;
}

/** A running reference server. */
export interface ReferenceServer {
  /** The base URL to give a client, without a trailing slash, such as `http://127.0.0.1:8787`. */
  url: string;
  /** The `node:http` server, for callers that want to count its connections. */
  server: Server;
  /** The service it serves. */
  service: MountableService;
  /**
   * Stops listening, closes every open connection (streams and idle keep-alive sockets alike) and
   * closes the service; resolves once all of it is closed. Calling it again returns the same promise.
   */
  close(): Promise<void>;
}

/** Starts the reference service on `node:http`; resolves once it listens. */
export async function startReferenceServer(
  options: StartReferenceServerOptions = {},
): Promise<ReferenceServer> {
  const host = options.host ?? '127.0.0.1';
  const service = options.service ?? createReferenceService();
  const handler = createNodeHandler((request) => service.fetch(request), {
    ...(options.onError === undefined ? {} : { onError: options.onError }),
  });
  const { onRequest } = options;
  const server = createServer((incoming, outgoing) => {
    if (onRequest) {
      watchServedRequest(incoming, outgoing, onRequest, options.onError ?? console.error);
    }
    void handler(incoming, outgoing);
  });
  answerClientErrors(server);

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await service.close?.();
    throw error;
  }

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Open streams would keep `server.close` waiting forever: cut every connection now. Their
      // request signals abort and their response streams are cancelled by the bridge.
      server.closeAllConnections();
      await service.close?.();
      await closed;
    })();
    return closing;
  };

  return { url: serverUrl(server.address() as AddressInfo), server, service, close };
}

/** The URL a client on this machine reaches the server at. */
function serverUrl(address: AddressInfo): string {
  let hostname = address.address;
  // A wildcard address is not something to connect to: loopback reaches it from this machine.
  if (hostname === '0.0.0.0') hostname = '127.0.0.1';
  if (hostname === '::') hostname = '::1';
  if (address.family === 'IPv6' || hostname.includes(':')) hostname = `[${hostname}]`;
  return `http://${hostname}:${address.port}`;
}
