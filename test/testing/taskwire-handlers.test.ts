/**
 * `taskwireHandlers` under Mock Service Worker's Node server: msw catches the global `fetch`
 * (test/testing/taskwire-handlers-cases.ts holds the tests both environments share).
 */
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { BASE, describeTaskwireHandlers } from './taskwire-handlers-cases.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describeTaskwireHandlers('taskwireHandlers', server, (serve) => {
  // Node only: a page can neither send its own preflight (`origin` and
  // `access-control-request-method` are forbidden request headers) nor read
  // `access-control-allow-methods` on a cross-origin answer.
  it("answers the service's own errors: a refusal, an unknown path, CORS preflights", async () => {
    const { client } = serve();
    await expect(client.submit('no-such-task', {})).rejects.toMatchObject({
      status: 404,
      reason: 'TASK_NOT_FOUND',
    });
    const unknown = await fetch(`${BASE}/workflows/echo/cancel/now`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ reason: 'NOT_FOUND' });
    const preflight = await fetch(`${BASE}/workflows/echo/submit`, {
      method: 'OPTIONS',
      headers: { 'access-control-request-method': 'POST', origin: 'http://app.test' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
  });
});
