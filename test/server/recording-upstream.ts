/**
 * A small upstream for the proxy's tests: a `node:http` server on loopback that records every
 * request it gets (method, path, headers, body) and answers with the test's own handler, so a test
 * sees exactly what the proxy sent and can answer what no real service would (a redirect, silence).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';

/** One request the upstream got. */
export interface RecordedRequest {
  method: string;
  /** The path and query, as sent. */
  url: string;
  headers: IncomingMessage['headers'];
  /** The whole body, as text. */
  body: string;
  /** Resolves when the connection closed before the answer was complete: the proxy aborted. */
  aborted: Promise<void>;
}

/** Answers one recorded request; the body has already been read. */
export type UpstreamHandler = (
  request: RecordedRequest,
  outgoing: ServerResponse,
) => void | Promise<void>;

/** A running recording upstream. */
export interface RecordingUpstream {
  /** Its base URL, such as `http://127.0.0.1:40123`. */
  url: string;
  /** Every request so far, in order. */
  requests: RecordedRequest[];
  /** Resolves with the request of this index (0 for the first) once it has arrived. */
  request(index: number): Promise<RecordedRequest>;
}

/** Answers with the JSON `body` and `status`, plus `headers`. */
export function answerJson(
  outgoing: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string | string[]> = {},
): void {
  outgoing.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  outgoing.end(JSON.stringify(body));
}

/** Starts a recording upstream on loopback, closed (every connection cut) when the test ends. */
export async function startRecordingUpstream(handler: UpstreamHandler): Promise<RecordingUpstream> {
  const requests: RecordedRequest[] = [];
  const waiters: { index: number; resolve: (request: RecordedRequest) => void }[] = [];
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    const aborted = new Promise<void>((resolve) => {
      outgoing.once('close', () => {
        if (!outgoing.writableFinished) resolve();
      });
    });
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const request: RecordedRequest = {
        method: incoming.method ?? '',
        url: incoming.url ?? '',
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        aborted,
      };
      requests.push(request);
      for (const waiter of waiters.filter(({ index }) => index === requests.length - 1)) {
        waiter.resolve(request);
      }
      void handler(request, outgoing);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    request: (index) =>
      new Promise<RecordedRequest>((resolve) => {
        const arrived = requests[index];
        if (arrived === undefined) waiters.push({ index, resolve });
        else resolve(arrived);
      }),
  };
}
