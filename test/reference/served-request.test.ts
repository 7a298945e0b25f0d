import { afterEach, describe, expect, it } from 'vitest';
import {
  type ReferenceServer,
  type ServedRequest,
  startReferenceServer,
} from '../../src/reference/node/index.js';
import { createReferenceService } from '../../src/reference/index.js';
import { AUTH, JSON_AUTH } from '../support/demo-auth.js';
import { rawExchange } from './raw-http.js';

let server: ReferenceServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A reference server on loopback whose `onRequest` reports are kept, and a wait for the n-th. */
async function loggedServer(options: { onError?: (error: unknown) => void } = {}) {
  const served: ServedRequest[] = [];
  const waiting: Array<{ count: number; resolve: () => void }> = [];
  server = await startReferenceServer({
    service: createReferenceService({ timeScale: 0.01 }),
    ...options,
    onRequest: (request) => {
      served.push(request);
      for (const wait of waiting.filter((entry) => served.length >= entry.count)) wait.resolve();
    },
  });
  const url = server.url;
  /** Resolves once `count` requests have been reported. */
  const reported = (count: number) =>
    new Promise<void>((resolve) => {
      if (served.length >= count) resolve();
      else waiting.push({ count, resolve });
    });
  return { url, served, reported };
}

describe('startReferenceServer’s onRequest', () => {
  it('tells each request once its answer ended: method, path without its query, status, time', async () => {
    const { url, served, reported } = await loggedServer();
    const submitted = await fetch(`${url}/workflows/echo/submit`, {
      method: 'POST',
      headers: JSON_AUTH,
      body: JSON.stringify({ params: { message: 'hi' } }),
    });
    const { response } = (await submitted.json()) as { response: { id: string } };
    const read = await fetch(`${url}/workflows/echo/${response.id}/result?token=secret#part`, {
      headers: AUTH,
    });
    await read.json();
    await reported(2);
    expect(served).toEqual([
      {
        method: 'POST',
        path: '/workflows/echo/submit',
        status: 202,
        durationMs: expect.any(Number),
        aborted: false,
      },
      {
        method: 'GET',
        path: `/workflows/echo/${response.id}/result`,
        status: 200,
        durationMs: expect.any(Number),
        aborted: false,
      },
    ]);
    expect(JSON.stringify(served)).not.toMatch(/secret|demo-user-token|demo-client-token/);
  });

  it('says a stream the page left was closed early', async () => {
    const { url, served, reported } = await loggedServer();
    const abort = new AbortController();
    const stream = await fetch(`${url}/workflows/render-video/stream`, {
      method: 'POST',
      headers: JSON_AUTH,
      body: JSON.stringify({ params: { frames: 500, frameMs: 10_000 } }),
      signal: abort.signal,
    });
    expect(stream.status).toBe(200);
    await stream.body?.getReader().read();
    abort.abort();
    await reported(1);
    expect(served[0]).toMatchObject({
      method: 'POST',
      path: '/workflows/render-video/stream',
      status: 200,
      aborted: true,
    });
  });

  it('logs the path only of a request in the absolute form, and cuts a path past 300 characters', async () => {
    const { served, reported } = await loggedServer();
    const port = Number(new URL(server!.url).port);
    const long = `/workflows/echo/${'x'.repeat(400)}/result`;
    await rawExchange(
      port,
      [
        'GET http://elsewhere.test/workflows/echo/x/result?token=secret HTTP/1.1\r\nhost: x\r\n\r\n',
        `GET ${long} HTTP/1.1\r\nhost: x\r\n\r\n`,
      ],
      { until: 2 },
    );
    await reported(2);
    expect(served.map(({ path, status }) => ({ path, status }))).toEqual([
      { path: '/workflows/echo/x/result', status: 401 },
      { path: `${long.slice(0, 300)}…`, status: 401 },
    ]);
  });

  it('reports a listener that throws to onError, and goes on serving', async () => {
    const errors: unknown[] = [];
    server = await startReferenceServer({
      service: createReferenceService({ timeScale: 0.01 }),
      onError: (error) => errors.push(error),
      onRequest: () => {
        throw new Error('the log is full');
      },
    });
    for (let index = 0; index < 2; index += 1) {
      const answer = await fetch(`${server.url}/workflows/echo/options`, {
        method: 'POST',
        headers: JSON_AUTH,
        body: JSON.stringify({ params: { message: 'hi' } }),
      });
      expect(answer.status).toBe(200);
      await answer.json();
    }
    await expect.poll(() => errors.length).toBe(2);
    expect(errors[0]).toEqual(new Error('the log is full'));
  });
});
