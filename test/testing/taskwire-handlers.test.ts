/**
 * `taskwireHandlers` under Mock Service Worker's Node server: the real client, with the global
 * `fetch` and no `fetch` option of its own, against `http://taskwire.test`, answered by the
 * reference service in-process through msw.
 */
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTaskClient } from '../../src/client/index.js';
import {
  createReferenceService,
  DEMO_CLIENT_TOKEN,
  DEMO_USER_TOKEN,
  demoTasks,
  type ReferenceService,
} from '../../src/reference/index.js';
import { scriptTask, taskwireHandlers, withFaults } from '../../src/testing/index.js';

const BASE = 'http://taskwire.test';
const server = setupServer();
const services: ReferenceService[] = [];

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(async () => {
  server.resetHandlers();
  await Promise.all(services.splice(0).map((service) => service.close()));
});
afterAll(() => server.close());

const paced = scriptTask('paced', [
  { progress: [25, 3] },
  { wait: 150 },
  { progress: [50, 2] },
  { wait: 150 },
  { progress: [75, 1] },
  { wait: 150 },
  { complete: { done: true } },
]);

/** A service behind msw at `BASE` (optionally faulted), and a client that uses the global fetch. */
function serve(
  wrap: (service: ReferenceService) => { fetch: ReferenceService['fetch'] } = (s) => s,
) {
  const service = createReferenceService({ tasks: [...demoTasks, paced], timeScale: 1 });
  services.push(service);
  server.use(...taskwireHandlers(wrap(service), { baseUrl: BASE }));
  const client = createTaskClient({
    baseUrl: BASE,
    userToken: DEMO_USER_TOKEN,
    clientToken: DEMO_CLIENT_TOKEN,
  });
  return { service, client };
}

describe('taskwireHandlers', () => {
  it('serves Submit, Get Result, Execute and Options to the global fetch', async () => {
    const { client } = serve();
    const { id } = await client.submit('echo', { message: 'hello' });
    await expect(client.getResult('echo', id)).resolves.toMatchObject({
      id,
      status: 'COMPLETED',
      result: { echo: 'hello' },
    });
    await expect(client.execute('echo', { message: 'again' })).resolves.toMatchObject({
      result: { echo: 'again' },
    });
    await expect(client.options('export-data', { format: 'csv' })).resolves.toMatchObject({
      credits: 1,
    });
  });

  it('passes a stream on event by event, as the service writes it', async () => {
    const { client } = serve();
    const stream = client.stream('paced', {});
    const seen: { type: string; percent?: number; status?: string }[] = [];
    for await (const event of stream) {
      // Read while the task is still running: a buffered answer would only arrive at its end.
      const record = await client.getResult('paced', stream.taskId!);
      seen.push({ type: event.type, status: record.status });
    }
    expect(seen).toEqual([
      { type: 'task.progress', status: 'IN_PROGRESS' },
      { type: 'task.progress', status: 'IN_PROGRESS' },
      { type: 'task.progress', status: 'IN_PROGRESS' },
      { type: 'task.completed', status: 'COMPLETED' },
    ]);
  });

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

  it('passes /openapi.json through as the service answers it', async () => {
    const { service } = serve();
    const direct = await service.fetch(new Request(`${BASE}/openapi.json`));
    const through = await fetch(`${BASE}/openapi.json`);
    expect(through.status).toBe(direct.status);
    expect(await through.text()).toBe(await direct.text());
  });

  it("turns a service call that fails as a network error into msw's network error", async () => {
    const { client } = serve((service) =>
      withFaults(service, [{ endpoint: 'execute', request: 1, lostAnswer: true }]),
    );
    const raw = await fetch(`${BASE}/workflows/echo/execute`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${DEMO_USER_TOKEN}`,
        'x-app-authorization': `Bearer ${DEMO_CLIENT_TOKEN}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ params: { message: 'lost' } }),
    }).then(
      () => 'answered',
      (error: unknown) => error,
    );
    expect(raw).toBeInstanceOf(TypeError);
    await expect(client.execute('echo', { message: 'kept' })).resolves.toMatchObject({
      result: { echo: 'kept' },
    });
  });

  it('reaches the client as a retryable network error', async () => {
    const { client } = serve((service) =>
      withFaults(service, [{ endpoint: 'submit', lostAnswer: true }]),
    );
    await expect(client.submit('echo', { message: 'hi' })).rejects.toMatchObject({
      code: 'network',
      retryable: true,
    });
  });

  it("serves a service's base path, given in baseUrl", async () => {
    const service = createReferenceService({ basePath: '/api' });
    services.push(service);
    server.use(...taskwireHandlers(service, { baseUrl: `${BASE}/api/` }));
    const client = createTaskClient({
      baseUrl: `${BASE}/api`,
      userToken: DEMO_USER_TOKEN,
      clientToken: DEMO_CLIENT_TOKEN,
    });
    await expect(client.execute('echo', { message: 'based' })).resolves.toMatchObject({
      result: { echo: 'based' },
    });
  });

  it('refuses a baseUrl that is not an absolute http(s) URL', () => {
    const service = createReferenceService();
    services.push(service);
    expect(() => taskwireHandlers(service, { baseUrl: '/taskwire' })).toThrow(TypeError);
    expect(() => taskwireHandlers(service, { baseUrl: 'ftp://taskwire.test' })).toThrow(TypeError);
  });
});
