import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { once } from 'node:events';
import http from 'node:http';
import type net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createReferenceService } from '../../src/reference/index.js';
import { type ReferenceServer, startReferenceServer } from '../../src/reference/node/index.js';
import { AUTH, JSON_AUTH } from '../support/demo-auth.js';

const STREAMS = 200;
const SUBMITS = 1000;
/** `render-video` with 10 frames sends 10 progress, 10 frame-rendered, 1 thumbnail, 1 partial, 1 final. */
const FRAMES = 10;
const CUSTOM_EVENTS_PER_STREAM = FRAMES + 1;
const MESSAGES_PER_STREAM = FRAMES + CUSTOM_EVENTS_PER_STREAM + 1 + 1;

let server: ReferenceServer | undefined;
let agent: http.Agent | undefined;

afterEach(async () => {
  agent?.destroy();
  agent = undefined;
  await server?.close();
  server = undefined;
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** One request over `node:http` through the shared agent, whose pool holds 256 connections. */
function call(base: URL, method: string, path: string, body?: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method,
        path,
        headers: body === undefined ? AUTH : JSON_AUTH,
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** One stream read with eventsource-parser; resolves with its task id and every message. */
function readStream(
  base: URL,
  path: string,
  body: unknown,
): Promise<{ taskId: string; messages: EventSourceMessage[] }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method: 'POST',
        path,
        headers: JSON_AUTH,
      },
      (response) => {
        const messages: EventSourceMessage[] = [];
        const parser = createParser({ onEvent: (message) => messages.push(message) });
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => parser.feed(chunk));
        response.on('end', () =>
          resolve({ taskId: String(response.headers['x-task-id']), messages }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}

function countResources(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const name of process.getActiveResourcesInfo()) counts[name] = (counts[name] ?? 0) + 1;
  return counts;
}

/**
 * The kinds of handles (sockets, timers, …) that are more numerous now than in `before`. Fewer is
 * fine: a timer of the test runner may have ended meanwhile.
 */
function resourcesAbove(before: Record<string, number>): Record<string, number> {
  const above: Record<string, number> = {};
  for (const [name, count] of Object.entries(countResources())) {
    if (count > (before[name] ?? 0)) above[name] = count - (before[name] ?? 0);
  }
  return above;
}

async function connectionCount(): Promise<number> {
  return new Promise((resolve, reject) =>
    server!.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
  );
}

/** The server's connections that are still open. */
const openConnections = new Set<net.Socket>();

/** Starts the server on `service` and keeps {@link openConnections} up to date. */
async function startServer(service: ReturnType<typeof createReferenceService>) {
  server = await startReferenceServer({ service });
  server.server.on('connection', (socket) => {
    openConnections.add(socket);
    socket.on('close', () => openConnections.delete(socket));
  });
  return server;
}

/** Closes the client pool and waits for the server's side of each connection to close. */
async function dropClientConnections(): Promise<void> {
  agent!.destroy();
  await Promise.all([...openConnections].map((socket) => once(socket, 'close')));
}

// These check that everything arrives, not how fast: on a busy 2-core CI machine the default 5 s
// per test is too little for 1,000 requests (speed lives in `npm run bench`).
const LOAD_TEST_TIMEOUT_MS = 60_000;

describe('reference server under load on loopback', { timeout: LOAD_TEST_TIMEOUT_MS }, () => {
  it(`delivers every event of ${STREAMS} concurrent streams`, async () => {
    // One user runs them all: their share is raised to the load, which is what is measured here.
    server = await startServer(
      createReferenceService({ timeScale: 0.01, limits: { tasksPerUser: STREAMS } }),
    );
    agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
    const base = new URL(server.url);
    const before = countResources();
    let connections = 0;
    server.server.on('connection', () => (connections += 1));

    const streams = await Promise.all(
      Array.from({ length: STREAMS }, () =>
        readStream(base, '/workflows/render-video/stream', {
          params: { frames: FRAMES, frameMs: 100 },
        }),
      ),
    );
    // A fresh pool for the reads: on a busy machine the first streams' sockets may have idled past
    // the server's keep-alive timeout (5 s) by now, and reusing one the server is just closing is
    // node:http's keep-alive race (ECONNRESET), not something the service did.
    agent.destroy();
    agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
    const records = await Promise.all(
      streams.map(async ({ taskId }) => {
        const answer = await call(base, 'GET', `/workflows/render-video/${taskId}/result`);
        return (
          JSON.parse(answer.text) as { response: { status: string; events: { id: string }[] } }
        ).response;
      }),
    );

    // Each stream held its own connection at the same time as the others.
    expect(connections).toBeGreaterThanOrEqual(STREAMS);
    expect(new Set(streams.map((stream) => stream.taskId)).size).toBe(STREAMS);
    expect(streams.reduce((total, stream) => total + stream.messages.length, 0)).toBe(
      STREAMS * MESSAGES_PER_STREAM,
    );
    streams.forEach((stream, index) => {
      const types = stream.messages.map(
        (message) => (JSON.parse(message.data) as { type: string }).type,
      );
      expect(types.at(-1)).toBe('task.completed');
      // Every message has its position as its id; a custom event's uuid is its eventId.
      expect(stream.messages.every((message) => /^\d{16}$/.test(message.id ?? ''))).toBe(true);
      const customIds = stream.messages
        .map((message) => (JSON.parse(message.data) as { eventId?: string }).eventId)
        .filter((eventId) => eventId !== undefined);
      expect(customIds).toHaveLength(CUSTOM_EVENTS_PER_STREAM);
      expect(records[index]!.status).toBe('COMPLETED');
      expect(customIds).toEqual(records[index]!.events.map((event) => event.id));
    });

    await dropClientConnections();
    expect(await connectionCount()).toBe(0);
    expect(resourcesAbove(before)).toEqual({});
  });

  it(`completes every one of ${SUBMITS} concurrent submits`, async () => {
    server = await startServer(
      createReferenceService({ timeScale: 0.01, limits: { tasksPerUser: SUBMITS } }),
    );
    agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
    const base = new URL(server.url);
    const before = countResources();

    const submitted = await Promise.all(
      Array.from({ length: SUBMITS }, (_, index) =>
        call(base, 'POST', '/workflows/echo/submit', { params: { message: `message ${index}` } }),
      ),
    );
    const ids = submitted.map((answer) => {
      expect(answer.status).toBe(202);
      return (JSON.parse(answer.text) as { response: { id: string } }).response.id;
    });
    expect(new Set(ids).size).toBe(SUBMITS);

    const results = await Promise.all(
      ids.map(async (id) => {
        for (let poll = 0; poll < 100; poll += 1) {
          const answer = await call(base, 'GET', `/workflows/echo/${id}/result`);
          const record = (
            JSON.parse(answer.text) as { response: { id: string; status: string; result: unknown } }
          ).response;
          if (record.status === 'COMPLETED' || record.status === 'FAILED') return record;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        throw new Error(`task ${id} did not finish`);
      }),
    );

    results.forEach((record, index) => {
      expect(record).toEqual(
        expect.objectContaining({
          id: ids[index],
          status: 'COMPLETED',
          result: { echo: `message ${index}` },
        }),
      );
    });

    await dropClientConnections();
    expect(await connectionCount()).toBe(0);
    expect(resourcesAbove(before)).toEqual({});
  });
});
