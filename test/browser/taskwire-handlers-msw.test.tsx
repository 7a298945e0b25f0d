/**
 * `taskwireHandlers` under Mock Service Worker's browser worker (`setupWorker`) in Chromium: the
 * real client with the page's own `fetch`, its requests to `http://taskwire.test` caught by the
 * service worker and answered by the reference service running in the page. The
 * worker's script, `/mockServiceWorker.js`, is served by Vitest's browser server from the installed msw.
 */
import { setupWorker } from 'msw/browser';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTaskClient, type TaskwireError } from '../../src/client/index.js';
import {
  createReferenceService,
  DEMO_CLIENT_TOKEN,
  DEMO_USER_TOKEN,
  demoTasks,
  type ReferenceService,
} from '../../src/reference/index.js';
import { scriptTask, taskwireHandlers, withFaults, type Fault } from '../../src/testing/index.js';

const BASE = 'http://taskwire.test';
const worker = setupWorker();
const services: ReferenceService[] = [];

beforeAll(async () => {
  await worker.start({
    quiet: true,
    // The test runner's own module requests pass; one to the service that no handler took fails.
    onUnhandledRequest: (request, print) => {
      if (new URL(request.url).origin === BASE) print.error();
    },
  });
});
afterEach(async () => {
  worker.resetHandlers();
  await Promise.all(services.splice(0).map((service) => service.close()));
});
afterAll(() => worker.stop());

const paced = scriptTask('paced', [
  { progress: [25, 3] },
  { wait: 150 },
  { progress: [50, 2] },
  { wait: 150 },
  { progress: [75, 1] },
  { wait: 150 },
  { complete: { done: true } },
]);

/** A service behind the worker at `BASE`, with `faults`, and a client that uses the page's fetch. */
function serve(faults: Fault[] = []) {
  const service = createReferenceService({ tasks: [...demoTasks, paced], timeScale: 1 });
  services.push(service);
  worker.use(...taskwireHandlers(withFaults(service, faults), { baseUrl: BASE }));
  const client = createTaskClient({
    baseUrl: BASE,
    userToken: DEMO_USER_TOKEN,
    clientToken: DEMO_CLIENT_TOKEN,
  });
  return { service, client };
}

describe('taskwireHandlers under setupWorker', () => {
  it('serves Submit, Get Result, Execute and Options to the page', async () => {
    // The page is controlled by msw's own worker script, so every answer below went through it.
    expect(navigator.serviceWorker.controller?.scriptURL).toBe(
      new URL('/mockServiceWorker.js', location.href).href,
    );
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

  it('passes a stream on event by event through the service worker', async () => {
    const { client } = serve();
    const stream = client.stream('paced', {});
    const seen: { type: string; status: string }[] = [];
    for await (const event of stream) {
      // Read while the task still runs: a buffered answer would only arrive when it has ended.
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

  it('breaks a stream after cutAfterEvents events, as a dropped connection does', async () => {
    const { client } = serve([{ endpoint: 'stream', cutAfterEvents: 2 }]);
    const stream = client.stream('paced', {});
    const seen: string[] = [];
    const ended = await (async () => {
      for await (const event of stream) {
        seen.push(event.type === 'task.progress' ? `progress ${event.percent}` : event.type);
      }
      return 'ended';
    })().catch((error: unknown) => error);
    expect(seen).toEqual(['progress 25', 'progress 50']);
    expect(ended).toMatchObject({ name: 'TaskwireError', code: 'network' });
    // The task goes on behind the broken stream; Get Result still reaches it.
    await expect(client.getResult('paced', stream.taskId!)).resolves.toMatchObject({
      id: stream.taskId,
    });
  });

  it("turns a service call that fails as a network error into msw's network error", async () => {
    const { client } = serve([{ endpoint: 'execute', request: 1, lostAnswer: true }]);
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

  it('hands the client a 429 with its Retry-After across origins', async () => {
    const { client } = serve([{ endpoint: 'submit', status: 429, retryAfter: 2 }]);
    const refused = await client.submit('echo', { message: 'hi' }).catch((error: unknown) => error);
    expect(refused).toMatchObject({
      status: 429,
      reason: 'RATE_LIMITED',
      retryAfterMs: 2000,
    } satisfies Partial<TaskwireError>);
  });
});
