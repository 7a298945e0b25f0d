import { once } from 'node:events';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { createReferenceService, defineTask } from '../../src/reference/index.js';
import { type ReferenceServer, startReferenceServer } from '../../src/reference/node/index.js';
import { AUTH } from '../support/demo-auth.js';

let server: ReferenceServer | undefined;
const sockets: net.Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await server?.close();
  server = undefined;
});

/**
 * Opens a stream over a raw socket, reads only the answer's head (to learn `x-task-id`), then never
 * reads again: the slowest client there is.
 */
async function openUnreadStream(url: string, path: string, body: unknown): Promise<string> {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  sockets.push(socket);
  socket.on('error', () => {});
  await once(socket, 'connect');
  const json = JSON.stringify(body);
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n` +
      `Authorization: ${AUTH.authorization!}\r\nx-app-authorization: ${AUTH['x-app-authorization']!}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`,
  );
  let head = '';
  while (!head.includes('\r\n\r\n')) {
    const [chunk] = (await once(socket, 'data')) as [Buffer];
    head += chunk.toString('latin1');
  }
  socket.pause();
  const taskId = /^x-task-id: (.+)$/im.exec(head)?.[1]?.trim();
  if (taskId === undefined) throw new Error(`no x-task-id in ${head.slice(0, 200)}`);
  return taskId;
}

async function waitForTerminal(
  url: string,
  task: string,
  id: string,
): Promise<{ status: string; result: unknown }> {
  for (let poll = 0; poll < 500; poll += 1) {
    const answer = await fetch(`${url}/workflows/${task}/${id}/result`, { headers: AUTH });
    const { response } = (await answer.json()) as { response: { status: string; result: unknown } };
    if (response.status === 'COMPLETED' || response.status === 'FAILED') return response;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`task ${id} did not finish`);
}

describe('slow stream clients', () => {
  it('a client that never reads does not stop its task, and closing the server does not hang', async () => {
    server = await startReferenceServer({ service: createReferenceService({ timeScale: 0.01 }) });
    const serverSockets: net.Socket[] = [];
    server.server.on('connection', (socket) => serverSockets.push(socket));

    const taskIds = await Promise.all(
      Array.from({ length: 5 }, () =>
        openUnreadStream(server!.url, '/workflows/render-video/stream', {
          params: { frames: 20, frameMs: 100 },
        }),
      ),
    );
    const records = await Promise.all(
      taskIds.map((id) => waitForTerminal(server!.url, 'render-video', id)),
    );

    expect(records.map((record) => record.status)).toEqual(Array(5).fill('COMPLETED'));
    // close() settles although no client ever read its stream: it ended those connections itself
    // rather than waiting for them to drain.
    await server.close();
    expect(serverSockets.length).toBeGreaterThanOrEqual(5);
    expect(serverSockets.every((socket) => socket.destroyed)).toBe(true);
  });

  it('drops a client that never reads a large stream, without holding its output, and the task completes', async () => {
    const partialBytes = 256 * 1024;
    const partials = 64;
    const bulky = defineTask({
      name: 'bulky',
      params: z.object({}),
      run: async (context) => {
        // 16 MiB of partial results: far more than the socket buffers and the service's bound.
        for (let index = 0; index < partials; index += 1) {
          context.partial({ index, padding: 'x'.repeat(partialBytes) });
          await context.sleep(1);
        }
        return { partials };
      },
    });
    const errors: unknown[] = [];
    server = await startReferenceServer({
      service: createReferenceService({
        tasks: [bulky],
        timeScale: 1,
        limits: { streamBufferBytes: 1024 * 1024 },
        // 0.3's stream queues for its client; a resumable one reads the log as the client reads.
        events: false,
      }),
      onError: (error) => errors.push(error),
    });
    const serverSockets: net.Socket[] = [];
    server.server.on('connection', (socket) => serverSockets.push(socket));

    const taskId = await openUnreadStream(server.url, '/workflows/bulky/stream', { params: {} });
    // The slow client's connection is the first one; the polls below come on others.
    const slowSocket = serverSockets[0]!;
    const record = await waitForTerminal(server.url, 'bulky', taskId);
    // The service drops the stream once its queue passes the bound; the server closes the socket.
    if (!slowSocket.destroyed) await once(slowSocket, 'close');

    expect(record).toMatchObject({ status: 'COMPLETED', result: { partials } });
    expect(slowSocket.destroyed).toBe(true);
    expect(slowSocket.bytesWritten).toBeGreaterThan(0);
    expect(slowSocket.bytesWritten).toBeLessThan((partials * partialBytes) / 2);
    expect(errors).toEqual([]);
    // close() settles with the slow client still connected and never reading.
    await server.close();
    expect(serverSockets.every((socket) => socket.destroyed)).toBe(true);
  });
});
