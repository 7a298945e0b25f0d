import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeHandler, type FetchHandler } from '../../src/reference/node/node-handler.js';

const servers: http.Server[] = [];
const sockets: net.Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

interface Listening {
  server: http.Server;
  port: number;
  errors: unknown[];
}

/** A real `node:http` server on loopback answering with `handler` through the bridge. */
async function listen(handler: FetchHandler, pathPrefix?: string): Promise<Listening> {
  const errors: unknown[] = [];
  const listener = createNodeHandler(handler, {
    onError: (error) => errors.push(error),
    ...(pathPrefix === undefined ? {} : { pathPrefix }),
  });
  const server = http.createServer((incoming, outgoing) => {
    void listener(incoming, outgoing);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, errors };
}

/** A promise with its resolve function, to let a handler tell the test what it saw. */
function signalled<Value = void>(): { promise: Promise<Value>; resolve: (value: Value) => void } {
  let resolve!: (value: Value) => void;
  const promise = new Promise<Value>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

/** Lets the event loop go round `count` times, I/O included, with no timer and no clock. */
async function loopTurns(count: number): Promise<void> {
  for (let turn = 0; turn < count; turn += 1) await new Promise((resolve) => setImmediate(resolve));
}

/** Waits until `value()` has stayed the same for `quietTurns` event-loop turns in a row. */
async function untilSteady(value: () => number, quietTurns = 50): Promise<number> {
  let last = value();
  for (let quiet = 0; quiet < quietTurns;) {
    await loopTurns(1);
    const now = value();
    quiet = now === last ? quiet + 1 : 0;
    last = now;
  }
  return last;
}

/** The limit the test handler enforces while reading, like the reference service does. */
const BODY_LIMIT = 1024 * 1024;

describe('createNodeHandler', () => {
  it('streams a chunked request body to the handler before the client has sent all of it', async () => {
    const firstChunk = signalled<string>();
    const seen: { transferEncoding: string | null; contentLength: string | null } = {
      transferEncoding: null,
      contentLength: null,
    };
    const { port } = await listen(async (request) => {
      seen.transferEncoding = request.headers.get('transfer-encoding');
      seen.contentLength = request.headers.get('content-length');
      const reader = request.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
        if (text.length > 0) firstChunk.resolve(text);
      }
      return Response.json({ received: text });
    });

    const request = http.request({ port, host: '127.0.0.1', method: 'POST', path: '/upload' });
    const answer = once(request, 'response') as Promise<[http.IncomingMessage]>;
    request.write('{"params":');
    // The second half goes out only once the handler has the first: a bridge that buffered the
    // whole body before calling the handler would never get here.
    expect(await firstChunk.promise).toBe('{"params":');
    request.end('{"message":"hi"}}');
    const [response] = await answer;
    let text = '';
    for await (const chunk of response) text += String(chunk);

    expect(response.statusCode).toBe(200);
    expect(JSON.parse(text)).toEqual({ received: '{"params":{"message":"hi"}}' });
    expect(seen).toEqual({ transferEncoding: 'chunked', contentLength: null });
  });

  it('refuses a body far over the limit with 413 without reading all of it', async () => {
    let handlerRead = 0;
    const { server, port } = await listen(async (request) => {
      const reader = request.body!.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        handlerRead += value.byteLength;
        if (handlerRead > BODY_LIMIT) {
          await reader.cancel();
          return Response.json({ reason: 'PAYLOAD_TOO_LARGE' }, { status: 413 });
        }
      }
      return Response.json({ read: handlerRead });
    });
    const serverSockets: net.Socket[] = [];
    server.on('connection', (socket) => serverSockets.push(socket));

    const offered = 256 * 1024 * 1024;
    let written = 0;
    const outcome = await new Promise<{ status: number | undefined; body: string }>(
      (resolve, reject) => {
        const request = http.request({ port, host: '127.0.0.1', method: 'POST', path: '/' });
        let answered = false;
        request.on('response', (response) => {
          answered = true;
          let body = '';
          response.on('data', (chunk) => (body += String(chunk)));
          response.on('end', () => resolve({ status: response.statusCode, body }));
        });
        // Writing into a socket the server closed fails; that is expected once the 413 is in.
        request.on('error', (error) => {
          if (!answered) reject(error);
        });
        const chunk = Buffer.alloc(64 * 1024, 0x61);
        const pump = (): void => {
          while (!answered && written < offered) {
            written += chunk.byteLength;
            if (!request.write(chunk)) {
              request.once('drain', pump);
              return;
            }
          }
          if (!answered) request.end();
        };
        pump();
      },
    );

    expect(outcome).toEqual({ status: 413, body: '{"reason":"PAYLOAD_TOO_LARGE"}' });
    // The handler stopped one chunk past the limit; the socket took what the kernel buffers hold.
    expect(handlerRead).toBeLessThanOrEqual(BODY_LIMIT + 64 * 1024);
    expect(written).toBeLessThan(offered / 8);
    expect(serverSockets).toHaveLength(1);
    expect(serverSockets[0]!.bytesRead).toBeLessThan(offered / 8);
  });

  it('closes the connection after an answer that left the request body unread', async () => {
    const { port } = await listen(() =>
      Response.json({ reason: 'UNSUPPORTED_MEDIA_TYPE' }, { status: 415 }),
    );
    const request = http.request({ port, host: '127.0.0.1', method: 'POST', path: '/' });
    request.write('x'.repeat(1000));
    const [response] = (await once(request, 'response')) as [http.IncomingMessage];
    response.resume();
    await once(response, 'end');
    request.destroy();

    expect(response.statusCode).toBe(415);
    expect(response.headers.connection).toBe('close');
  });

  it('aborts the request signal and cancels the response stream when the client goes away', async () => {
    const aborted = signalled();
    const cancelled = signalled<unknown>();
    const { port } = await listen((request) => {
      request.signal.addEventListener('abort', () => aborted.resolve());
      let timer: NodeJS.Timeout | undefined;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('data: {"type":"task.progress"}\n\n'));
          // One more event much later: the client leaves before it.
          timer = setTimeout(
            () => controller.enqueue(new TextEncoder().encode(': late\n\n')),
            60_000,
          );
        },
        cancel(reason) {
          clearTimeout(timer);
          cancelled.resolve(reason);
        },
      });
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    });

    const request = http.request({ port, host: '127.0.0.1', method: 'POST', path: '/stream' });
    request.end('{}');
    const [response] = (await once(request, 'response')) as [http.IncomingMessage];
    const [first] = (await once(response, 'data')) as [Buffer];
    expect(first.toString()).toBe('data: {"type":"task.progress"}\n\n');
    request.on('error', () => {});
    request.destroy();

    await aborted.promise;
    await cancelled.promise;
  });

  it('fails the body read and aborts the signal when the client leaves halfway through its body', async () => {
    const gotFirst = signalled();
    const outcome = signalled<{ readError: string; aborted: boolean }>();
    const { port } = await listen(async (request) => {
      const reader = request.body!.getReader();
      try {
        await reader.read();
        gotFirst.resolve();
        for (;;) if ((await reader.read()).done) break;
        outcome.resolve({ readError: 'none', aborted: request.signal.aborted });
      } catch (error) {
        // The signal aborts on the `close` event of the response, which may come after the error.
        if (!request.signal.aborted) await once(request.signal, 'abort');
        outcome.resolve({ readError: (error as Error).message, aborted: request.signal.aborted });
      }
      return new Response(null, { status: 204 });
    });

    const request = http.request({ port, host: '127.0.0.1', method: 'POST', path: '/' });
    request.on('error', () => {});
    request.write('first part of a body that never ends');
    await gotFirst.promise;
    request.destroy();

    const seen = await outcome.promise;
    expect(seen.readError).not.toBe('none');
    expect(seen.aborted).toBe(true);
  });

  it('stops pulling from the response stream while the client does not read', async () => {
    const chunkBytes = 64 * 1024;
    let pulls = 0;
    let writableLength = 0;
    let outgoing: http.ServerResponse | undefined;
    let pulledPast: { count: number; resolve: () => void } | undefined;
    const { server, port } = await listen(() => {
      const body = new ReadableStream<Uint8Array>(
        {
          pull(controller) {
            // What the bridge has queued in node:http and not yet handed to the kernel.
            writableLength = Math.max(writableLength, outgoing?.writableLength ?? 0);
            pulls += 1;
            if (pulledPast !== undefined && pulls > pulledPast.count) pulledPast.resolve();
            controller.enqueue(new Uint8Array(chunkBytes));
          },
        },
        { highWaterMark: 0 },
      );
      return new Response(body);
    });
    server.on('request', (_incoming, response: http.ServerResponse) => (outgoing = response));

    // A client that sends its request and then never reads a byte of the answer.
    const socket = net.connect(port, '127.0.0.1');
    sockets.push(socket);
    await once(socket, 'connect');
    socket.pause();
    socket.write('GET /never-read HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');

    // The kernel buffers fill and the bridge waits for a `drain` that does not come: no pull for
    // 50 turns of the event loop, then none for 500 more (a bridge that ignored backpressure would
    // pull on every turn).
    const settled = await untilSteady(() => pulls);
    await loopTurns(500);
    writableLength = Math.max(writableLength, outgoing!.writableLength);

    expect(pulls).toBe(settled);
    expect(outgoing!.writableNeedDrain).toBe(true);
    // An unbounded server would have queued gigabytes by now; this one holds what the kernel's
    // socket buffers take plus one chunk.
    expect(settled * chunkBytes).toBeLessThan(64 * 1024 * 1024);
    expect(writableLength).toBeLessThanOrEqual(chunkBytes + 16 * 1024);

    // Once the client reads, the stream flows again.
    const resumed = new Promise<void>((resolve) => (pulledPast = { count: settled + 10, resolve }));
    socket.resume();
    await resumed;
  });

  it('answers a handler that throws with 500 INTERNAL and no stack', async () => {
    const failure = new Error('secret detail at /srv/app/service.ts:42');
    const { port, errors } = await listen(() => {
      throw failure;
    });

    const response = await fetch(`http://127.0.0.1:${port}/workflows/echo/execute`, {
      method: 'POST',
      body: '{}',
    });
    const text = await response.text();

    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(JSON.parse(text)).toEqual({
      status: 'error',
      statusCode: 500,
      reason: 'INTERNAL',
      message: 'The service failed to answer this request.',
    });
    expect(text).not.toContain('secret');
    expect(text).not.toContain('service.ts');
    expect(errors).toEqual([failure]);
  });

  it('answers a handler that returns something other than a Response with 500 INTERNAL', async () => {
    const { port, errors } = await listen(() => ({ status: 200 }) as unknown as Response);

    const response = await fetch(`http://127.0.0.1:${port}/`);

    expect(response.status).toBe(500);
    expect(((await response.json()) as { reason: string }).reason).toBe('INTERNAL');
    expect(errors).toHaveLength(1);
  });

  it('cuts the connection when the response body errors after the headers went out', async () => {
    const { port, errors } = await listen(() => {
      let sent = false;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent) {
            controller.error(new Error('broken stream'));
            return;
          }
          sent = true;
          controller.enqueue(new TextEncoder().encode('data: {}\n\n'));
        },
      });
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    });

    const response = await fetch(`http://127.0.0.1:${port}/`);

    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
    // Breaking a stream off is how a handler drops a client; it is not a failure to report.
    expect(errors).toEqual([]);
  });

  it('cuts the connection at once when the body errors while the client does not read', async () => {
    let failBody: (() => void) | undefined;
    const { server, port } = await listen(() => {
      const body = new ReadableStream<Uint8Array>(
        {
          start(controller) {
            failBody = () => controller.error(new Error('client too slow'));
          },
          pull(controller) {
            controller.enqueue(new Uint8Array(256 * 1024));
          },
        },
        { highWaterMark: 0 },
      );
      return new Response(body);
    });
    const serverSockets: net.Socket[] = [];
    server.on('connection', (socket) => serverSockets.push(socket));

    const socket = net.connect(port, '127.0.0.1');
    sockets.push(socket);
    socket.on('error', () => {});
    await once(socket, 'connect');
    socket.pause();
    socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    // Let the kernel buffers fill, so the bridge is waiting for `drain`, not reading.
    await untilSteady(() => serverSockets[0]?.bytesWritten ?? -1);
    expect(serverSockets[0]!.destroyed).toBe(false);
    failBody!();

    await once(serverSockets[0]!, 'close');
  });

  it('passes headers both ways: repeated request headers joined, each cookie on its own line', async () => {
    let seenAccept: string | null = null;
    let seenUrl = '';
    const { port } = await listen((request) => {
      seenAccept = request.headers.get('x-repeated');
      seenUrl = request.url;
      const headers = new Headers({ location: '/workflows/echo/1/result', 'x-task-id': 'abc' });
      headers.append('set-cookie', 'a=1; Path=/');
      headers.append('set-cookie', 'b=2, c; Path=/');
      return new Response('{}', { status: 202, headers });
    }, '/taskwire');

    const request = http.request({
      port,
      host: '127.0.0.1',
      method: 'GET',
      path: '//workflows/echo?x=1',
      headers: { 'x-repeated': ['one', 'two'] },
    });
    request.end();
    const [response] = (await once(request, 'response')) as [http.IncomingMessage];
    response.resume();
    await once(response, 'end');

    expect(seenAccept).toBe('one, two');
    expect(new URL(seenUrl).pathname).toBe('//workflows/echo');
    expect(new URL(seenUrl).search).toBe('?x=1');
    expect(response.statusCode).toBe(202);
    expect(response.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2, c; Path=/']);
    expect(response.headers.location).toBe('/taskwire/workflows/echo/1/result');
    expect(response.headers['x-task-id']).toBe('abc');
  });

  it('gives a GET request no body and answers HEAD without one', async () => {
    const bodies: (ReadableStream<Uint8Array> | null)[] = [];
    const { port } = await listen((request) => {
      bodies.push(request.body);
      return new Response('hello', { headers: { 'content-type': 'text/plain' } });
    });

    const get = await fetch(`http://127.0.0.1:${port}/`);
    const head = await fetch(`http://127.0.0.1:${port}/`, { method: 'HEAD' });

    expect(await get.text()).toBe('hello');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect(bodies).toEqual([null, null]);
  });
});
