/**
 * `withFaults` in front of the real reference service, called by the real client and by hand: each
 * kind of rule, how rules count requests, the task filter, and what the service did behind a fault
 * (a task run counts its runs, so "served" and "not served" are facts, not guesses).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTaskClient, TaskwireError } from '../../src/client/index.js';
import {
  createReferenceService,
  defineTask,
  DEMO_CLIENT_TOKEN,
  DEMO_USER_TOKEN,
  type ReferenceService,
} from '../../src/reference/index.js';
import { scriptTask, withFaults, type Fault } from '../../src/testing/index.js';

const BASE = 'http://taskwire.test';
const services: ReferenceService[] = [];

/** A service with `count` (runs of the task `counted`) and a scripted stream `ticks`, faulted by `faults`. */
function setUp(faults: Fault[], clientOptions: { requestTimeoutMs?: number } = {}) {
  const runs = { count: 0 };
  const counted = defineTask({
    name: 'counted',
    params: scriptTask('params-only', [{ complete: null }]).params,
    run: () => {
      runs.count += 1;
      return { run: runs.count };
    },
  });
  const ticks = scriptTask('ticks', [
    { progress: [20, 4] },
    { wait: 40_000 },
    { emit: ['tick', { n: 1 }] },
    { progress: [60, 2] },
    { wait: 40_000 },
    { emit: ['tick', { n: 2 }] },
    { complete: { ticks: 2 } },
  ]);
  // 15 s keep-alives at this scale are 15 ms, so the 40 ms waits are filled with comments.
  const inner = createReferenceService({ tasks: [counted, ticks], timeScale: 0.001 });
  services.push(inner);
  const service = withFaults(inner, faults);
  const client = createTaskClient({
    baseUrl: BASE,
    userToken: DEMO_USER_TOKEN,
    clientToken: DEMO_CLIENT_TOKEN,
    fetch: (request) => service.fetch(request),
    ...clientOptions,
  });
  return { inner, service, client, runs };
}

/** A request to the service with the demo tokens. */
function request(path: string, init: RequestInit & { body?: string } = {}): Request {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${DEMO_USER_TOKEN}`);
  headers.set('x-app-authorization', `Bearer ${DEMO_CLIENT_TOKEN}`);
  if (init.body !== undefined) headers.set('content-type', 'application/json');
  return new Request(`${BASE}${path}`, { method: init.body ? 'POST' : 'GET', ...init, headers });
}

const post = (path: string, init: Omit<RequestInit, 'body'> & { body?: string } = {}) =>
  request(path, { body: JSON.stringify({ params: {} }), ...init });

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable('it should have rejected'),
    (error: unknown) => error,
  );
}

afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(services.splice(0).map((service) => service.close()));
});

describe('withFaults: status', () => {
  it('answers the error body with Retry-After, without serving the request', async () => {
    const { service, client, runs } = setUp([{ endpoint: 'submit', status: 429, retryAfter: 3 }]);
    const response = await service.fetch(post('/workflows/counted/submit'));
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('3');
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({
      status: 'error',
      statusCode: 429,
      reason: 'RATE_LIMITED',
      message: expect.any(String),
    });
    const error = await rejection(client.submit('counted', {}));
    expect(error).toBeInstanceOf(TaskwireError);
    expect(error).toMatchObject({
      code: 'http',
      status: 429,
      reason: 'RATE_LIMITED',
      retryAfterMs: 3000,
      retryable: true,
    });
    expect(runs.count).toBe(0);
  });

  it('uses the given reason, and INTERNAL for a 5xx without one', async () => {
    const { client } = setUp([
      { endpoint: 'execute', request: 1, status: 503, reason: 'MAINTENANCE' },
      { endpoint: 'execute', request: 2, status: 500 },
    ]);
    await expect(client.execute('counted', {})).rejects.toMatchObject({
      status: 503,
      reason: 'MAINTENANCE',
    });
    await expect(client.execute('counted', {})).rejects.toMatchObject({
      status: 500,
      reason: 'INTERNAL',
    });
    await expect(client.execute('counted', {})).resolves.toMatchObject({ result: { run: 1 } });
  });

  it("defaults a 404's reason to the endpoint's: RESULT_NOT_FOUND or TASK_NOT_FOUND", async () => {
    const { client } = setUp([
      { endpoint: 'result', status: 404 },
      { endpoint: 'submit', request: 2, status: 404 },
    ]);
    const { id } = await client.submit('counted', {});
    await expect(client.getResult('counted', id)).rejects.toMatchObject({
      reason: 'RESULT_NOT_FOUND',
    });
    await expect(client.submit('counted', {})).rejects.toMatchObject({ reason: 'TASK_NOT_FOUND' });
  });
});

describe('withFaults: which requests a rule takes', () => {
  it('counts `request` from 1 over the requests of its endpoint', async () => {
    const { client } = setUp([{ endpoint: 'result', request: 2, status: 500 }]);
    const { id } = await client.submit('counted', {});
    const outcomes = [];
    for (let index = 0; index < 4; index += 1) {
      outcomes.push(
        await client.getResult('counted', id).then(
          () => 'ok',
          (error: TaskwireError) => error.status,
        ),
      );
    }
    expect(outcomes).toEqual(['ok', 500, 'ok', 'ok']);
  });

  it('counts and faults only the requests of its task', async () => {
    const { client, runs } = setUp([
      { endpoint: 'execute', task: 'ticks', request: 1, status: 502 },
    ]);
    await expect(client.execute('counted', {})).resolves.toMatchObject({ status: 'COMPLETED' });
    await expect(client.execute('counted', {})).resolves.toMatchObject({ status: 'COMPLETED' });
    await expect(client.execute('ticks', {})).rejects.toMatchObject({ status: 502 });
    await expect(client.execute('ticks', {})).resolves.toMatchObject({ result: { ticks: 2 } });
    expect(runs.count).toBe(2);
  });

  it('faults every matching request when `request` is left out; the first rule that applies wins', async () => {
    const { client } = setUp([
      { endpoint: 'options', request: 2, status: 418 },
      { endpoint: 'options', status: 503 },
    ]);
    const statuses = [];
    for (let index = 0; index < 3; index += 1) {
      statuses.push(
        await client.options('counted', {}).catch((error: TaskwireError) => error.status),
      );
    }
    expect(statuses).toEqual([503, 418, 503]);
  });

  it('leaves CORS preflights, other methods and other paths alone, and does not count them', async () => {
    const { service } = setUp([{ endpoint: 'submit', request: 1, status: 500 }]);
    const preflight = await service.fetch(
      new Request(`${BASE}/workflows/counted/submit`, {
        method: 'OPTIONS',
        headers: { 'access-control-request-method': 'POST', origin: 'http://app.test' },
      }),
    );
    expect(preflight.status).toBe(204);
    expect((await service.fetch(request('/workflows/counted/submit'))).status).toBe(405);
    expect((await service.fetch(request('/nowhere'))).status).toBe(404);
    expect((await service.fetch(post('/workflows/counted/submit'))).status).toBe(500);
    expect((await service.fetch(post('/workflows/counted/submit'))).status).toBe(202);
  });

  it('finds the endpoint under a base path', async () => {
    const inner = createReferenceService({ basePath: '/api/v1' });
    services.push(inner);
    const service = withFaults(inner, [{ endpoint: 'options', task: 'echo', status: 500 }]);
    expect((await service.fetch(post('/api/v1/workflows/echo/options'))).status).toBe(500);
    // Another task's request is the service's own answer (export-data needs params: 422).
    expect((await service.fetch(post('/api/v1/workflows/export-data/options'))).status).toBe(422);
  });
});

describe('withFaults: lostAnswer', () => {
  it('serves the request, then rejects as a network error', async () => {
    const { service, runs } = setUp([{ endpoint: 'execute', lostAnswer: true }]);
    const error = await rejection(service.fetch(post('/workflows/counted/execute')));
    expect(error).toBeInstanceOf(TypeError);
    expect(error).toMatchObject({ message: 'fetch failed' });
    expect(runs.count).toBe(1);
  });

  it('a lost Submit answer, retried with the same Idempotency-Key, makes one task', async () => {
    const { client, runs } = setUp([{ endpoint: 'submit', request: 1, lostAnswer: true }]);
    const first = await rejection(client.submit('counted', {}, { idempotencyKey: 'key-1' }));
    expect(first).toMatchObject({ code: 'network', retryable: true });
    const { id } = await client.submit('counted', {}, { idempotencyKey: 'key-1' });
    await vi.waitFor(async () => {
      expect(await client.getResult('counted', id)).toMatchObject({
        status: 'COMPLETED',
        result: { run: 1 },
      });
    });
    expect(runs.count).toBe(1);
  });
});

describe('withFaults: hang', () => {
  it('never answers, and the service never sees the request, until the request is aborted', async () => {
    const { service, runs } = setUp([{ endpoint: 'execute', request: 1, hang: true }]);
    const controller = new AbortController();
    const answer = service.fetch(post('/workflows/counted/execute', { signal: controller.signal }));
    const settled = vi.fn();
    answer.then(settled, settled);
    // The same request sent after it, which the rule lets through, is answered, and the service ran
    // the task once, for that one alone: the hung request never reached it.
    expect((await service.fetch(post('/workflows/counted/execute'))).status).toBe(200);
    expect(settled).not.toHaveBeenCalled();
    expect(runs.count).toBe(1);
    controller.abort();
    const error = await rejection(answer);
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(runs.count).toBe(1);
  });

  it("ends in the client's own deadline, as a retryable timeout", async () => {
    const { client } = setUp([{ endpoint: 'result', hang: true }], { requestTimeoutMs: 50 });
    const { id } = await client.submit('counted', {});
    await expect(client.getResult('counted', id)).rejects.toMatchObject({
      code: 'timeout',
      retryable: true,
    });
  });

  it('rejects at once for a request whose signal is already aborted', async () => {
    const { service } = setUp([{ endpoint: 'options', hang: true }]);
    const aborted = AbortSignal.abort();
    await expect(
      service.fetch(post('/workflows/counted/options', { signal: aborted })),
    ).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('withFaults: delayMs', () => {
  it('delays the answer on the timers (fake timers apply)', async () => {
    vi.useFakeTimers();
    const { service } = setUp([{ endpoint: 'options', delayMs: 1000 }]);
    const settled = vi.fn();
    const answer = service.fetch(post('/workflows/counted/options'));
    answer.then(settled, settled);
    await vi.advanceTimersByTimeAsync(999);
    expect(settled).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect((await answer).status).toBe(200);
  });

  it('delays an error answer too, and gives up when the request is aborted', async () => {
    vi.useFakeTimers();
    const { service } = setUp([
      { endpoint: 'options', request: 1, status: 500, delayMs: 100 },
      { endpoint: 'options', request: 2, delayMs: 100 },
    ]);
    const first = service.fetch(post('/workflows/counted/options'));
    await vi.advanceTimersByTimeAsync(100);
    expect((await first).status).toBe(500);
    const controller = new AbortController();
    const second = service.fetch(post('/workflows/counted/options', { signal: controller.signal }));
    const outcome = rejection(second);
    await vi.advanceTimersByTimeAsync(50);
    controller.abort();
    expect(await outcome).toMatchObject({ name: 'AbortError' });
  });
});

describe('withFaults: cutAfterEvents', () => {
  /** Reads `response`'s body as text until it ends or breaks. */
  async function readUntilBroken(response: Response): Promise<{ text: string; error: unknown }> {
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return { text, error: undefined };
        text += value;
      }
    } catch (error) {
      return { text, error };
    }
  }

  it('lets exactly n data: events through, keep-alive comments not counted, then breaks', async () => {
    const { service } = setUp([{ endpoint: 'stream', cutAfterEvents: 3 }]);
    const response = await service.fetch(post('/workflows/ticks/stream'));
    expect(response.status).toBe(200);
    expect(response.headers.get('x-task-id')).toEqual(expect.any(String));
    const { text, error } = await readUntilBroken(response);
    expect(error).toBeInstanceOf(TypeError);
    const messages = text.split('\n\n').filter((message) => message !== '');
    const events = messages.filter((message) => /^data:/m.test(message));
    expect(events.map((event) => JSON.parse(/^data: (.*)$/m.exec(event)![1]!).type)).toEqual([
      'task.progress',
      'event.tick',
      'task.progress',
    ]);
    expect(messages.some((message) => message.startsWith(': keep-alive'))).toBe(true);
    expect(text.endsWith('\n\n')).toBe(true);
  });

  it('breaks before any event with 0, and the client recovers the task by its id', async () => {
    const { client } = setUp([{ endpoint: 'stream', cutAfterEvents: 0 }]);
    const stream = client.stream('ticks', {});
    const events: unknown[] = [];
    const error = await rejection(
      (async () => {
        for await (const event of stream) events.push(event);
      })(),
    );
    expect(events).toEqual([]);
    expect(error).toMatchObject({ code: 'network', taskId: stream.taskId });
    await vi.waitFor(async () => {
      expect(await client.getResult('ticks', stream.taskId!)).toMatchObject({
        status: 'COMPLETED',
      });
    });
  });

  it('reaches the real client as a broken stream after the n-th event', async () => {
    const { client } = setUp([{ endpoint: 'stream', request: 1, cutAfterEvents: 2 }]);
    const events: { type: string }[] = [];
    const error = await rejection(
      (async () => {
        for await (const event of client.stream('ticks', {})) events.push(event);
      })(),
    );
    expect(events.map(({ type }) => type)).toEqual(['task.progress', 'event.tick']);
    expect(error).toMatchObject({ code: 'network', retryable: true });
    const whole: { type: string }[] = [];
    for await (const event of client.stream('ticks', {})) whole.push(event);
    expect(whole.at(-1)).toMatchObject({ type: 'task.completed', result: { ticks: 2 } });
  });

  it('passes a stream that ends first, and a refusal that is no stream, unchanged', async () => {
    const { service } = setUp([{ endpoint: 'stream', cutAfterEvents: 10 }]);
    const whole = await readUntilBroken(await service.fetch(post('/workflows/ticks/stream')));
    expect(whole.error).toBeUndefined();
    expect(whole.text).toContain('"type":"task.completed"');
    const refused = await service.fetch(
      request('/workflows/ticks/stream', { body: JSON.stringify({}) }),
    );
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ reason: 'MALFORMED_BODY' });
  });
});

describe('withFaults: the service around it', () => {
  it('keeps every other member of the service', async () => {
    const inner = createReferenceService();
    const service = withFaults(inner, []);
    expect(service.notifications).toBe(inner.notifications);
    await service.close();
    const refused = await service.fetch(
      post('/workflows/echo/submit', {
        body: JSON.stringify({ params: { message: 'hi' } }),
      }),
    );
    expect(refused.status).toBe(500);
  });

  it.each<[string, unknown, RegExp]>([
    ['an unknown endpoint', { endpoint: 'cancel', status: 500 }, /names no endpoint/],
    ['a status outside 400–599', { endpoint: 'submit', status: 302 }, /400–599/],
    ['a request number of 0', { endpoint: 'submit', request: 0, status: 500 }, /from 1/],
    ['retryAfter without status', { endpoint: 'submit', retryAfter: 1 }, /without a status/],
    ['cutAfterEvents on Submit', { endpoint: 'submit', cutAfterEvents: 1 }, /no stream/],
    ['two outcomes', { endpoint: 'stream', hang: true, status: 500 }, /more than one/],
    ['no fault', { endpoint: 'stream', task: 'ticks' }, /names no fault/],
    ['a negative delay', { endpoint: 'stream', delayMs: -1 }, /delayMs/],
  ])('refuses a rule with %s', (_what, fault, message) => {
    expect(() => withFaults(createReferenceService(), [fault as Fault])).toThrow(message);
  });
});
