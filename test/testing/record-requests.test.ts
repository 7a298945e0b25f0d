/**
 * `recordRequests` in front of the real reference service, called by the real client: what it
 * records of each request and answer, that it keeps no token, and where it sits with `withFaults`.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTaskClient } from '../../src/client/index.js';
import {
  createReferenceService,
  DEMO_CLIENT_TOKEN,
  DEMO_USER_TOKEN,
  type ReferenceService,
} from '../../src/reference/index.js';
import { recordRequests, withFaults, type FetchService } from '../../src/testing/index.js';

const services: ReferenceService[] = [];
afterEach(async () => {
  await Promise.all(services.splice(0).map((service) => service.close()));
});

function clientOn(service: FetchService) {
  return createTaskClient({
    baseUrl: 'http://taskwire.test',
    userToken: DEMO_USER_TOKEN,
    clientToken: DEMO_CLIENT_TOKEN,
    fetch: (request) => service.fetch(request),
  });
}

function newService(): ReferenceService {
  const service = createReferenceService({ timeScale: 0.01 });
  services.push(service);
  return service;
}

describe('recordRequests', () => {
  it('records each request with its endpoint, task, key and answer, and keeps the service', async () => {
    const inner = newService();
    const service = recordRequests(inner);
    const client = clientOn(service);
    const { id } = await client.submit('echo', { message: 'hi' });
    await client.getResult('echo', id);
    await expect(client.submit('no-such-task', {})).rejects.toMatchObject({ status: 404 });
    expect(service.requests).toEqual([
      {
        method: 'POST',
        path: '/workflows/echo/submit',
        endpoint: 'submit',
        task: 'echo',
        idempotencyKey: expect.stringMatching(/^[0-9a-f-]{36}$/),
        body: { params: { message: 'hi' } },
        aborted: false,
        at: expect.any(Number),
        answer: {
          status: 202,
          headers: expect.any(Headers),
          body: { status: 'success', response: { id, status: 'ACCEPTED' } },
        },
      },
      expect.objectContaining({
        method: 'GET',
        path: `/workflows/echo/${id}/result`,
        endpoint: 'result',
        task: 'echo',
        idempotencyKey: null,
        body: undefined,
        answer: expect.objectContaining({ status: 200 }),
      }),
      expect.objectContaining({
        endpoint: 'submit',
        task: 'no-such-task',
        answer: {
          status: 404,
          headers: expect.any(Headers),
          body: expect.objectContaining({ reason: 'TASK_NOT_FOUND' }),
        },
      }),
    ]);
    expect(service.notifications).toBe(inner.notifications);
    expect(JSON.stringify(service.requests)).not.toContain(DEMO_USER_TOKEN);
    expect(JSON.stringify(service.requests)).not.toContain(DEMO_CLIENT_TOKEN);
  });

  it('records when each request arrived and the headers of its answer', async () => {
    // The clock only: the service's answers still come through on real turns.
    vi.useFakeTimers({ toFake: ['Date'], now: 1_000 });
    try {
      const service = recordRequests(newService());
      const client = clientOn(service);
      const { id } = await client.submit('render-video', { frames: 20, frameMs: 1000 });
      vi.setSystemTime(3_500);
      await client.getResult('render-video', id);
      const [submit, poll] = service.requests;
      expect(service.requests.map((request) => request.at)).toEqual([1_000, 3_500]);
      expect(submit?.answer?.headers.get('location')).toBe(`/workflows/render-video/${id}/result`);
      // A task still running: the service's hint for the next poll, in whole seconds.
      expect(poll?.answer?.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    } finally {
      vi.useRealTimers();
    }
  });

  it("records a stream's status without reading its body, and no endpoint for other paths", async () => {
    const service = recordRequests(newService());
    const client = clientOn(service);
    const events = [];
    for await (const event of client.stream('echo', { message: 'streamed' })) events.push(event);
    expect(events.at(-1)).toMatchObject({ type: 'task.completed' });
    await service.fetch(new Request('http://taskwire.test/workflows/echo/cancel/now'));
    expect(service.requests).toEqual([
      expect.objectContaining({
        endpoint: 'stream',
        task: 'echo',
        answer: { status: 200, headers: expect.any(Headers) },
      }),
      expect.objectContaining({
        method: 'GET',
        path: '/workflows/echo/cancel/now',
        endpoint: undefined,
        task: undefined,
        answer: expect.objectContaining({ status: 404 }),
      }),
    ]);
  });

  it('tells whether the client aborted a request', async () => {
    const service = recordRequests(
      withFaults(newService(), [{ endpoint: 'execute', request: 1, hang: true }]),
    );
    const client = clientOn(service);
    const controller = new AbortController();
    const call = client.execute('echo', { message: 'x' }, { signal: controller.signal });
    await vi.waitFor(() => expect(service.requests).toHaveLength(1));
    expect(service.requests.map((request) => request.aborted)).toEqual([false]);
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: 'aborted' });
    expect(service.requests.map((request) => request.aborted)).toEqual([true]);
  });

  it('inside withFaults sees the answer a fault lost; outside, the call that failed', async () => {
    const inside = recordRequests(newService());
    const outside = recordRequests(
      withFaults(inside, [{ endpoint: 'submit', request: 1, lostAnswer: true }]),
    );
    const client = clientOn(outside);
    // The app retries a lost Submit with the same key, as useSubmitTask does.
    const options = { idempotencyKey: 'a7c1a1a4-54b5-4c41-9e51-6cfb2ee8c9d3' };
    await expect(client.submit('echo', { message: 'once' }, options)).rejects.toMatchObject({
      code: 'network',
    });
    const { id } = await client.submit('echo', { message: 'once' }, options);
    const [lost, retried] = inside.requests;
    expect(inside.requests).toHaveLength(2);
    expect(retried?.idempotencyKey).toBe(lost?.idempotencyKey);
    expect(lost?.answer?.body).toEqual({ status: 'success', response: { id, status: 'ACCEPTED' } });
    expect(outside.requests.map((request) => request.answer?.status)).toEqual([undefined, 202]);
  });
});
