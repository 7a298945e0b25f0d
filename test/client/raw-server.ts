/**
 * A bare `node:http` server for the client's wire tests: it records every request (method, URL,
 * headers, body) and lets each test write exactly the bytes it wants, so the tests can assert the
 * outcome and the number of requests the server saw. Not a mock of our service: it is a real socket.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the server received it. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A running raw server. */
export interface RawServer {
  /** Base URL, such as `http://127.0.0.1:40123`. */
  url: string;
  /** Every request received so far, in order. */
  requests: RecordedRequest[];
  /** Resolves once the client side of the `index`th request's connection has closed. */
  closed(index: number): Promise<void>;
  /** Stops the server and drops every connection. */
  close(): Promise<void>;
}

/** What a test's handler is given. */
export type RawHandler = (
  request: RecordedRequest,
  response: ServerResponse,
  incoming: IncomingMessage,
) => void | Promise<void>;

/** Starts a server on a free loopback port. */
export async function startRawServer(handler: RawHandler): Promise<RawServer> {
  const requests: RecordedRequest[] = [];
  const closings: Array<Promise<void>> = [];
  const server = createServer((incoming, response) => {
    closings.push(new Promise((resolve) => response.on('close', () => resolve())));
    const parts: Buffer[] = [];
    incoming.on('data', (part: Buffer) => parts.push(part));
    incoming.on('end', () => {
      const recorded: RecordedRequest = {
        method: incoming.method ?? '',
        url: incoming.url ?? '',
        headers: incoming.headers,
        body: Buffer.concat(parts).toString('utf8'),
      };
      requests.push(recorded);
      void Promise.resolve(handler(recorded, response, incoming)).catch(() => {
        response.destroy();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    async closed(index) {
      await closings[index];
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}

/** Answers JSON with a status. */
export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(text);
}

/** Starts an event stream answer with its headers sent at once. */
export function startEventStream(response: ServerResponse, taskId = 'task-1'): void {
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'x-task-id': taskId,
  });
  response.flushHeaders();
}

/** Waits a little, so that the next write leaves in a chunk of its own. */
export function pause(milliseconds = 5): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}

/** Writes each part, pausing between them, so the client reads them as separate chunks. */
export async function writeApart(
  response: ServerResponse,
  parts: ReadonlyArray<string | Uint8Array>,
): Promise<void> {
  for (const part of parts) {
    response.write(part);
    await pause();
  }
}

/** The wire form of one event. */
export function sse(event: unknown, id?: string): string {
  return `${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(event)}\n\n`;
}

/** A `task.completed` event with no usage. */
export const completed = { type: 'task.completed', result: { done: true } };
