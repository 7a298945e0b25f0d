import { afterEach, describe, expect, it } from 'vitest';
import { createReferenceService } from '../../src/reference/index.js';
import { type ReferenceServer, startReferenceServer } from '../../src/reference/node/index.js';
import { jsonOf, rawExchange } from './raw-http.js';

let server: ReferenceServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A fresh reference server on loopback, and its port. */
async function listen(config: Parameters<typeof createReferenceService>[0] = {}): Promise<number> {
  server = await startReferenceServer({ service: createReferenceService(config) });
  return Number(new URL(server.url).port);
}

/** Sends one raw request on a fresh connection and resolves with its one answer. */
async function answerTo(port: number, head: string) {
  const { answers } = await rawExchange(port, [head], { until: 1 });
  expect(answers).toHaveLength(1);
  return answers[0]!;
}

describe('the node bridge, on methods a Web Request cannot have', () => {
  it.each([
    ['/workflows/echo/submit', 'POST, OPTIONS'],
    ['/workflows/render-video/stream', 'POST, OPTIONS'],
    ['/workflows/echo/some-id/result', 'GET, OPTIONS'],
  ])('answers TRACE on %s with 405 METHOD_NOT_ALLOWED and Allow', async (path, allow) => {
    const port = await listen();
    const answer = await answerTo(port, `TRACE ${path} HTTP/1.1\r\nhost: x\r\n\r\n`);
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe(allow);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.headers['access-control-allow-origin']).toBe('*');
    expect(jsonOf(answer)).toEqual({
      status: 'error',
      statusCode: 405,
      reason: 'METHOD_NOT_ALLOWED',
      message: expect.stringContaining('TRACE'),
    });
  });

  it.each(['/', '/workflows', '/workflows/echo/unknown-endpoint'])(
    'answers TRACE on %s, which is no endpoint, with 404 NOT_FOUND',
    async (path) => {
      const port = await listen();
      const answer = await answerTo(port, `TRACE ${path} HTTP/1.1\r\nhost: x\r\n\r\n`);
      expect(answer.status).toBe(404);
      expect(jsonOf(answer)).toMatchObject({ statusCode: 404, reason: 'NOT_FOUND' });
    },
  );

  it('answers TRACE under the base path like any other wrong method', async () => {
    const port = await listen({ basePath: '/api' });
    const on = await answerTo(
      port,
      'TRACE /api/workflows/echo/execute HTTP/1.1\r\nhost: x\r\n\r\n',
    );
    const off = await answerTo(port, 'TRACE /workflows/echo/execute HTTP/1.1\r\nhost: x\r\n\r\n');
    expect([on.status, off.status]).toEqual([405, 404]);
  });

  it('answers TRACE as it answers PUT on the same path', async () => {
    const port = await listen();
    const trace = await answerTo(port, 'TRACE /workflows/echo/execute HTTP/1.1\r\nhost: x\r\n\r\n');
    const put = await answerTo(
      port,
      'PUT /workflows/echo/execute HTTP/1.1\r\nhost: x\r\ncontent-length: 0\r\n\r\n',
    );
    expect([trace.status, trace.headers.allow]).toEqual([put.status, put.headers.allow]);
    expect(jsonOf(trace).reason).toBe(jsonOf(put).reason);
  });
});
