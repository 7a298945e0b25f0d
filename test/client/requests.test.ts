import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTaskClient } from '../../src/client/index.js';
import { demoTaskSchemas } from '../../src/reference/index.js';
import { pause, sendJson, startRawServer, type RawServer } from './raw-server.js';
import { failure } from '../support/failure.js';

let server: RawServer | undefined;

afterEach(async () => {
  vi.restoreAllMocks();
  await server?.close();
  server = undefined;
});

const record = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  status: 'IN_PROGRESS',
  result: null,
  progress: { percent: 10, estimatedSecondsLeft: 3 },
  events: [],
  ...extra,
});

const errorBody = (statusCode: number, reason: string, message = 'no', extra = {}) => ({
  status: 'error',
  statusCode,
  reason,
  message,
  ...extra,
});

describe('createTaskClient headers', () => {
  it('sends both tokens, platform, touchpoint and the JSON content type on a POST', async () => {
    server = await startRawServer((_request, response) =>
      sendJson(response, 200, { status: 'success', response: {} }),
    );
    const client = createTaskClient({
      baseUrl: `${server.url}/`,
      userToken: 'user-1',
      clientToken: 'client-1',
      platform: 'web',
      touchpoint: 'editor.sidebar',
    });
    expect(await client.options('echo', { message: 'a' })).toEqual({});
    const headers = server.requests[0]?.headers;
    expect(server.requests[0]?.url).toBe('/workflows/echo/options');
    expect(headers?.['authorization']).toBe('Bearer user-1');
    expect(headers?.['x-app-authorization']).toBe('Bearer client-1');
    expect(headers?.['platform']).toBe('web');
    expect(headers?.['x-touchpoint']).toBe('editor.sidebar');
    expect(headers?.['content-type']).toBe('application/json');
    expect(server.requests).toHaveLength(1);
  });

  it('sends no content type, platform or touchpoint on a GET when none is configured', async () => {
    server = await startRawServer((_request, response) =>
      sendJson(response, 200, { status: 'success', response: record('t1') }),
    );
    const client = createTaskClient({ baseUrl: server.url, userToken: 'u', clientToken: 'c' });
    await client.getResult('echo', 't1');
    const headers = server.requests[0]?.headers ?? {};
    expect(headers['content-type']).toBeUndefined();
    expect(headers['platform']).toBeUndefined();
    expect(headers['x-touchpoint']).toBeUndefined();
    expect(server.requests[0]?.method).toBe('GET');
  });

  it('asks the token getters on every request', async () => {
    server = await startRawServer((_request, response) =>
      sendJson(response, 200, { status: 'success', response: record('t1') }),
    );
    let calls = 0;
    const client = createTaskClient({
      baseUrl: server.url,
      userToken: async () => `user-${++calls}`,
      clientToken: () => 'client',
    });
    await client.getResult('echo', 't1');
    await client.getResult('echo', 't1');
    expect(server.requests.map((request) => request.headers['authorization'])).toEqual([
      'Bearer user-1',
      'Bearer user-2',
    ]);
  });

  it('refreshes once after a 401 and sends the request once more with the tokens read again', async () => {
    let token = 'stale';
    server = await startRawServer((request, response) => {
      if (request.headers['authorization'] === 'Bearer fresh') {
        sendJson(response, 202, { status: 'success', response: { id: 't1', status: 'ACCEPTED' } });
      } else {
        sendJson(response, 401, errorBody(401, 'UNAUTHENTICATED'));
      }
    });
    const onUnauthorized = vi.fn(async () => {
      await pause(5);
      token = 'fresh';
    });
    const client = createTaskClient({
      baseUrl: server.url,
      userToken: () => token,
      clientToken: 'c',
      onUnauthorized,
    });
    expect(await client.submit('echo', { message: 'x' })).toEqual({ id: 't1', status: 'ACCEPTED' });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(server.requests).toHaveLength(2);
    const keys = server.requests.map((request) => request.headers['idempotency-key']);
    expect(keys[0]).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(keys[1]).toBe(keys[0]);
  });

  it('fails with http 401 after a second 401, having refreshed once', async () => {
    server = await startRawServer((_request, response) =>
      sendJson(response, 401, errorBody(401, 'UNAUTHENTICATED', 'Unknown token.')),
    );
    const onUnauthorized = vi.fn();
    const client = createTaskClient({
      baseUrl: server.url,
      userToken: 'u',
      clientToken: 'c',
      onUnauthorized,
    });
    const error = await failure(client.execute('echo', { message: 'x' }));
    expect(error.code).toBe('http');
    expect(error.status).toBe(401);
    expect(error.reason).toBe('UNAUTHENTICATED');
    expect(error.retryable).toBe(false);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(server.requests).toHaveLength(2);
  });

  it('does not send again after a 401 without onUnauthorized', async () => {
    server = await startRawServer((_request, response) =>
      sendJson(response, 401, errorBody(401, 'UNAUTHENTICATED')),
    );
    const client = createTaskClient({ baseUrl: server.url, userToken: 'u', clientToken: 'c' });
    expect((await failure(client.options('echo', {}))).status).toBe(401);
    expect(server.requests).toHaveLength(1);
  });
});

describe('createTaskClient tokens', () => {
  const userToken = 'secret-user-token-7f3a';
  const clientToken = 'secret-client-token-91bc';

  function expectNoToken(text: string) {
    expect(text).not.toContain(userToken);
    expect(text).not.toContain(clientToken);
  }

  it('never puts a token in a URL, an error message, JSON.stringify(error) or a log line', async () => {
    const logged: string[] = [];
    for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      vi.spyOn(console, method).mockImplementation((...parts: unknown[]) => {
        logged.push(parts.map(String).join(' '));
      });
    }
    server = await startRawServer((request, response) => {
      if (request.url.includes('/broken/')) response.socket?.destroy();
      else if (request.url.includes('/html/'))
        response.writeHead(200, { 'content-type': 'text/html' }).end('<p>');
      else sendJson(response, 401, errorBody(401, 'UNAUTHENTICATED'));
    });
    const client = createTaskClient({
      baseUrl: server.url,
      userToken,
      clientToken,
      onUnauthorized: () => {},
    });
    const aborted = new AbortController();
    aborted.abort();
    const errors = [
      await failure(client.submit('echo', {})),
      await failure(client.getResult('broken', 'id-1')),
      await failure(client.getResult('html', 'id-1')),
      await failure(client.options('echo', {}, { signal: aborted.signal })),
      await failure(
        createTaskClient({ baseUrl: 'http://127.0.0.1:1', userToken, clientToken }).options(
          'echo',
          {},
        ),
      ),
      await failure(
        createTaskClient({ baseUrl: server.url, userToken: `${userToken}\n`, clientToken }).options(
          'echo',
          {},
        ),
      ),
    ];
    expect(errors.map((error) => error.code)).toEqual([
      'http',
      'network',
      'protocol',
      'aborted',
      'network',
      'protocol',
    ]);
    expect(errors[5]?.reason).toBe('INVALID_HEADER');
    for (const error of errors) {
      expectNoToken(error.message);
      expectNoToken(JSON.stringify(error));
      expectNoToken(String(error.stack));
      expectNoToken(String(error));
    }
    for (const request of server.requests) expectNoToken(request.url);
    expect(logged).toEqual([]);
  });
});

describe('createTaskClient paths', () => {
  it('refuses a task name that breaks the contract with a rejected promise and sends nothing', async () => {
    server = await startRawServer((_request, response) => sendJson(response, 500, {}));
    const client = createTaskClient({ baseUrl: server.url, userToken: 'u', clientToken: 'c' });
    for (const name of ['', '-echo', 'a b', '../x', 'x'.repeat(129), 'é']) {
      const promise = client.submit(name, {});
      expect(promise).toBeInstanceOf(Promise);
      const error = await failure(promise);
      expect(error.code).toBe('protocol');
      expect(error.reason).toBe('INVALID_TASK_NAME');
      expect(error.status).toBeUndefined();
    }
    await expect(client.getResult('a/b', 'x')).rejects.toMatchObject({
      reason: 'INVALID_TASK_NAME',
    });
    await expect(client.execute('a?b', {})).rejects.toMatchObject({ reason: 'INVALID_TASK_NAME' });
    await expect(client.options('a#b', {})).rejects.toMatchObject({ reason: 'INVALID_TASK_NAME' });
    expect(server.requests).toHaveLength(0);
  });

  it('encodes an id containing NUL, slashes and spaces, and returns the record', async () => {
    const id = 'a\u0000b/c d?e';
    server = await startRawServer((_request, response) =>
      sendJson(response, 200, { status: 'success', response: record(id) }),
    );
    const client = createTaskClient({ baseUrl: server.url, userToken: 'u', clientToken: 'c' });
    const result = await client.getResult('my.task_v2', id);
    expect(result.id).toBe(id);
    expect(server.requests.map((request) => request.url)).toEqual([
      '/workflows/my.task_v2/a%00b%2Fc%20d%3Fe/result',
    ]);
  });

  it('refuses an empty id, one over 256 characters, and the dot segments', async () => {
    server = await startRawServer((_request, response) => sendJson(response, 500, {}));
    const client = createTaskClient({ baseUrl: server.url, userToken: 'u', clientToken: 'c' });
    for (const id of ['', 'i'.repeat(257), '.', '..']) {
      await expect(client.getResult('echo', id)).rejects.toMatchObject({
        code: 'protocol',
        reason: 'INVALID_TASK_ID',
      });
    }
    expect(server.requests).toHaveLength(0);
  });

  it('keeps the path of an absolute base URL', async () => {
    server = await startRawServer((_request, response) =>
      sendJson(response, 200, { status: 'success', response: {} }),
    );
    const client = createTaskClient({
      baseUrl: `${server.url}/api/taskwire//`,
      userToken: 'u',
      clientToken: 'c',
    });
    await client.options('echo', {});
    expect(server.requests[0]?.url).toBe('/api/taskwire/workflows/echo/options');
  });

  it('resolves a base path against the page location, or refuses it where there is none', async () => {
    const seen: string[] = [];
    const client = createTaskClient({
      baseUrl: '/taskwire',
      userToken: 'u',
      clientToken: 'c',
      fetch: async (request) => {
        seen.push(request.url);
        return Response.json({ status: 'success', response: {} });
      },
    });
    const location = (globalThis as { location?: Location }).location;
    if (location === undefined) {
      await expect(client.options('echo', {})).rejects.toMatchObject({
        code: 'protocol',
        reason: 'INVALID_BASE_URL',
      });
      expect(seen).toEqual([]);
    } else {
      expect(await client.options('echo', {})).toEqual({});
      expect(seen).toEqual([new URL('/taskwire/workflows/echo/options', location.href).href]);
    }
  });
});

describe('createTaskClient errors', () => {
  it('reports an HTML 502 from a proxy as http with the text as body, naming the URL that answered', async () => {
    server = await startRawServer((_request, response) => {
      response.writeHead(502, 'Bad Gateway', { 'content-type': 'text/html' });
      response.end('<html><body>502 Bad Gateway</body></html>');
    });
    const client = createTaskClient({ baseUrl: server.url, userToken: 'u', clientToken: 'c' });
    const error = await failure(client.getResult('echo', 't1'));
    expect(error.code).toBe('http');
    expect(error.status).toBe(502);
    expect(error.reason).toBe('NOT_A_TASKWIRE_ANSWER');
    expect(error.body).toBe('<html><body>502 Bad Gateway</body></html>');
    expect(error.retryable).toBe(true);
    expect(error.taskId).toBe('t1');
    expect(error.message).toBe(
      `The answer was 502 Bad Gateway (text/html). GET ${server.url}/workflows/echo/t1/result did not answer as a taskwire service does: the baseUrl may be wrong, or something in between (a proxy, a dev server) answered.`,
    );
    expect(server.requests).toHaveLength(1);
  });

  it('reports a 200 text/html answer as protocol', async () => {
    server = await startRawServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<!doctype html><title>Single page app</title>');
    });
    const client = createTaskClient({ baseUrl: server.url, userToken: 'u', clientToken: 'c' });
    const error = await failure(client.submit('echo', {}));
    expect(error.code).toBe('protocol');
    expect(error.message).toContain('not JSON (text/html)');
    expect(error.retryable).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  it('reads Retry-After in seconds from a 429', async () => {
    server = await startRawServer((_request, response) =>
      sendJson(response, 429, errorBody(429, 'RATE_LIMITED'), { 'retry-after': '7' }),
    );
    const client = createTaskClient({ baseUrl: server.url, userToken: 'u', clientToken: 'c' });
    const error = await failure(client.submit('echo', {}));
    expect(error.code).toBe('http');
    expect(error.status).toBe(429);
    expect(error.reason).toBe('RATE_LIMITED');
    expect(error.retryAfterMs).toBe(7000);
    expect(error.retryable).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it('reads Retry-After as an HTTP date from a 429', async () => {
    const later = new Date(Math.ceil(Date.now() / 1000) * 1000 + 30_000);
    server = await startRawServer((_request, response) =>
      sendJson(response, 429, errorBody(429, 'RATE_LIMITED'), {
        'retry-after': later.toUTCString(),
      }),
    );
    const client = createTaskClient({ baseUrl: server.url, userToken: 'u', clientToken: 'c' });
    const error = await failure(client.options('echo', {}));
    expect(error.retryAfterMs).toBeGreaterThan(25_000);
    expect(error.retryAfterMs).toBeLessThanOrEqual(31_000);
    expect(server.requests).toHaveLength(1);
  });

  it('hands the Retry-After hint of a Get Result answer to onRetryAfter', async () => {
    server = await startRawServer((_request, response) =>
      sendJson(
        response,
        200,
        { status: 'success', response: record('t1') },
        { 'retry-after': '2' },
      ),
    );
    const client = createTaskClient({ baseUrl: server.url, userToken: 'u', clientToken: 'c' });
    const hints: Array<number | undefined> = [];
    await client.getResult('echo', 't1', {
      onRetryAfter: (milliseconds) => hints.push(milliseconds),
    });
    expect(hints).toEqual([2000]);
  });

  it('reports a connection refused as network', async () => {
    const client = createTaskClient({
      baseUrl: 'http://127.0.0.1:1',
      userToken: 'u',
      clientToken: 'c',
    });
    const error = await failure(client.getResult('echo', 't1'));
    expect(error.code).toBe('network');
    expect(error.retryable).toBe(true);
  });

  it('reports a record with a wrong field as protocol naming the field', async () => {
    server = await startRawServer((_request, response) =>
      sendJson(response, 200, {
        status: 'success',
        response: record('t1', { progress: { percent: 'ten', estimatedSecondsLeft: 1 } }),
      }),
    );
    const client = createTaskClient({ baseUrl: server.url, userToken: 'u', clientToken: 'c' });
    const error = await failure(client.getResult('echo', 't1'));
    expect(error.code).toBe('protocol');
    expect(error.message).toMatch(/breaks the contract: response\.progress\.percent: /);
    expect(error.taskId).toBe('t1');
  });

  it('reports usage whose total disagrees with its entries as protocol, and accepts a failed entry at 0', async () => {
    const details = [
      { toolId: 'a', price: 0.1, amount: 3, credits: 0.30000000000000004, failed: false },
      { toolId: 'b', price: 5, amount: 1, credits: 0, failed: true },
    ];
    let total = 0.3;
    server = await startRawServer((_request, response) =>
      sendJson(response, 200, {
        status: 'success',
        response: {
          id: 't1',
          status: 'COMPLETED',
          result: { ok: true },
          usage: { credits: total, details },
        },
      }),
    );
    const client = createTaskClient({ baseUrl: server.url, userToken: 'u', clientToken: 'c' });
    expect((await client.execute('echo', {})).usage?.credits).toBe(0.3);
    total = 5.3;
    const error = await failure(client.execute('echo', {}));
    expect(error.code).toBe('protocol');
    expect(error.message).toContain('response.usage: usage.credits is 5.3');
  });

  it('requires the failure object as the result of a FAILED record', async () => {
    server = await startRawServer((_request, response) =>
      sendJson(response, 200, {
        status: 'success',
        response: record('t1', { status: 'FAILED', result: { oops: 1 } }),
      }),
    );
    const client = createTaskClient({ baseUrl: server.url, userToken: 'u', clientToken: 'c' });
    const error = await failure(client.getResult('echo', 't1'));
    expect(error.code).toBe('protocol');
    expect(error.message).toContain('response.result.status');
  });

  it('reports a record for another id as protocol', async () => {
    server = await startRawServer((_request, response) =>
      sendJson(response, 200, { status: 'success', response: record('other') }),
    );
    const client = createTaskClient({ baseUrl: server.url, userToken: 'u', clientToken: 'c' });
    expect((await failure(client.getResult('echo', 't1'))).code).toBe('protocol');
  });

  it('refuses params that are not a JSON object before sending', async () => {
    server = await startRawServer((_request, response) => sendJson(response, 500, {}));
    const client = createTaskClient({ baseUrl: server.url, userToken: 'u', clientToken: 'c' });
    for (const params of [null, [], 'text', 3] as unknown as Array<Record<string, unknown>>) {
      await expect(client.execute('echo', params)).rejects.toMatchObject({
        code: 'protocol',
        reason: 'INVALID_PARAMS',
      });
    }
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await expect(client.submit('echo', cyclic)).rejects.toMatchObject({
      code: 'protocol',
      reason: 'INVALID_PARAMS',
    });
    expect(server.requests).toHaveLength(0);
  });
});

describe('createTaskClient params check', () => {
  it('says which field and which rule the params break, before sending', async () => {
    server = await startRawServer((_request, response) => sendJson(response, 500, {}));
    const client = createTaskClient({
      baseUrl: server.url,
      userToken: 'u',
      clientToken: 'c',
      tasks: demoTaskSchemas,
    });
    const error = await failure(client.submit('generate-images', { prompt: 'a cat', count: 80 }));
    expect(error).toMatchObject({ code: 'protocol', reason: 'INVALID_PARAMS' });
    expect(error.message).toBe(
      "The params of 'generate-images' are invalid: count: must be at most 8",
    );
    expect(server.requests).toHaveLength(0);
  });
});

describe('createTaskClient abort', () => {
  it('sends nothing for an already-aborted signal, on every method', async () => {
    server = await startRawServer((_request, response) => sendJson(response, 500, {}));
    const client = createTaskClient({ baseUrl: server.url, userToken: 'u', clientToken: 'c' });
    const controller = new AbortController();
    controller.abort();
    const signal = controller.signal;
    const errors = [
      await failure(client.submit('echo', {}, { signal })),
      await failure(client.getResult('echo', 't1', { signal })),
      await failure(client.execute('echo', {}, { signal })),
      await failure(client.options('echo', {}, { signal })),
    ];
    expect(errors.map((error) => error.code)).toEqual(['aborted', 'aborted', 'aborted', 'aborted']);
    expect(server.requests).toHaveLength(0);
  });

  it('rejects with aborted and closes the connection when aborted while waiting', async () => {
    server = await startRawServer(() => {
      // Never answers.
    });
    const client = createTaskClient({ baseUrl: server.url, userToken: 'u', clientToken: 'c' });
    const controller = new AbortController();
    const pending = client.options('echo', {}, { signal: controller.signal });
    await vi.waitFor(() => expect(server?.requests).toHaveLength(1));
    controller.abort();
    expect((await failure(pending)).code).toBe('aborted');
    await server.closed(0);
  });
});

describe('client.submit', () => {
  it('sends the given idempotency key and the notification in the body', async () => {
    server = await startRawServer((_request, response) =>
      sendJson(
        response,
        202,
        { status: 'success', response: { id: 't9', status: 'ACCEPTED' } },
        { location: '/x' },
      ),
    );
    const client = createTaskClient({ baseUrl: server.url, userToken: 'u', clientToken: 'c' });
    const notification = { enabled: true, actions: [{ deeplink: 'https://app.test/t9' }] };
    await client.submit(
      'export-data',
      { format: 'csv' },
      { idempotencyKey: 'key-1', notification },
    );
    expect(server.requests[0]?.headers['idempotency-key']).toBe('key-1');
    expect(JSON.parse(server.requests[0]?.body ?? '')).toEqual({
      params: { format: 'csv' },
      notification,
    });
  });

  it('reports an answer whose id is a path step, which Get Result could never read, as protocol', async () => {
    server = await startRawServer((_request, response) =>
      sendJson(response, 202, { status: 'success', response: { id: '..', status: 'ACCEPTED' } }),
    );
    const client = createTaskClient({ baseUrl: server.url, userToken: 'u', clientToken: 'c' });
    const error = await failure(client.submit('echo', {}));
    expect(error.code).toBe('protocol');
    expect(error.message).toContain('response.id');
  });

  it('makes a fresh key for each call', async () => {
    server = await startRawServer((_request, response) =>
      sendJson(response, 202, { status: 'success', response: { id: 't9', status: 'ACCEPTED' } }),
    );
    const client = createTaskClient({ baseUrl: server.url, userToken: 'u', clientToken: 'c' });
    await client.submit('echo', {});
    await client.submit('echo', {});
    const keys = server.requests.map((request) => request.headers['idempotency-key']);
    expect(new Set(keys).size).toBe(2);
  });
});

describe('client.execute', () => {
  it('fails with timeout at its own deadline when the service never answers', async () => {
    server = await startRawServer(() => {
      // Never answers.
    });
    const client = createTaskClient({
      baseUrl: server.url,
      userToken: 'u',
      clientToken: 'c',
      executeTimeoutMs: 100,
    });
    const started = Date.now();
    const error = await failure(client.execute('slow-report', {}));
    expect(error.code).toBe('timeout');
    expect(error.status).toBeUndefined();
    expect(error.retryable).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(95);
    expect(server.requests).toHaveLength(1);
    await server.closed(0);
  });

  it("turns the service's 504 EXECUTE_TIMEOUT into timeout with status, reason and task id", async () => {
    server = await startRawServer((_request, response) =>
      sendJson(
        response,
        504,
        errorBody(504, 'EXECUTE_TIMEOUT', 'Still running.', { taskId: 'task-504' }),
      ),
    );
    const client = createTaskClient({ baseUrl: server.url, userToken: 'u', clientToken: 'c' });
    const error = await failure(client.execute('slow-report', {}));
    expect(error.code).toBe('timeout');
    expect(error.status).toBe(504);
    expect(error.reason).toBe('EXECUTE_TIMEOUT');
    expect(error.taskId).toBe('task-504');
    expect(server.requests).toHaveLength(1);
  });

  it('returns a FAILED task as data', async () => {
    const failed = errorBody(500, 'TASK_ERROR', 'It broke.');
    server = await startRawServer((_request, response) =>
      sendJson(response, 200, {
        status: 'success',
        response: { id: 't3', status: 'FAILED', result: failed },
      }),
    );
    const client = createTaskClient({ baseUrl: server.url, userToken: 'u', clientToken: 'c' });
    expect(await client.execute('failing-task', {})).toEqual({
      id: 't3',
      status: 'FAILED',
      result: failed,
    });
  });
});
