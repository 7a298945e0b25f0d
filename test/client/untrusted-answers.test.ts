/**
 * The client against answers and settings that could hurt an app: redirects, answers that never
 * end, answers too large to hold, app functions that throw, base URLs with credentials, and
 * connections that fail (docs/protocol.md, "The client").
 */
import { createServer } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTaskClient, TaskwireError } from '../../src/client/index.js';
import { sendJson, startRawServer, type RawServer } from './raw-server.js';
import { failure } from '../support/failure.js';

const servers: RawServer[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(handler: Parameters<typeof startRawServer>[0]): Promise<RawServer> {
  const server = await startRawServer(handler);
  servers.push(server);
  return server;
}

const record = (id: string) => ({
  id,
  status: 'IN_PROGRESS',
  result: null,
  progress: { percent: 10, estimatedSecondsLeft: 5 },
  events: [],
});

const tokens = { userToken: 'user-secret', clientToken: 'client-secret' };

describe('createTaskClient redirects', () => {
  it('never follows one: no token, header or body reaches its target', async () => {
    const elsewhere = await serve((_request, response) => sendJson(response, 202, {}));
    const service = await serve((_request, response) => {
      response.writeHead(307, { location: `${elsewhere.url}/workflows/echo/submit` });
      response.end();
    });
    const client = createTaskClient({ baseUrl: service.url, ...tokens });
    for (const call of [
      () => client.submit('echo', { message: 'secret params' }),
      () => client.getResult('echo', 'task-1'),
      () => client.options('echo', {}),
      () => client.execute('echo', {}),
    ]) {
      const error = await failure(call());
      expect(error).toMatchObject({ code: 'http', status: 307, reason: 'REDIRECT' });
      expect(error.retryable).toBe(false);
      expect(error.message).not.toContain('secret');
    }
    const stream = client.stream('echo', {});
    expect(await failure(stream[Symbol.asyncIterator]().next())).toMatchObject({
      code: 'http',
      reason: 'REDIRECT',
    });
    expect(service.requests).toHaveLength(5);
    expect(elsewhere.requests).toHaveLength(0);
  });
});

describe('createTaskClient deadlines', () => {
  it('waits as long as a timer can for a longer deadline, rather than not at all', async () => {
    const client = createTaskClient({
      baseUrl: 'https://tasks.example',
      ...tokens,
      requestTimeoutMs: 2 ** 31,
      // A service that never answers.
      fetch: () => new Promise<Response>(() => undefined),
    });
    let settled = false;
    void client
      .getResult('echo', '0f8e3c1a-5b7d-4e2f-9a6c-1d3b5f7e9a2c')
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => (settled = true));
    // A timer asked to wait past 2^31 - 1 ms fires after 1 ms instead, so before one that expires
    // later: once this one fired, a deadline taken at face value would have passed.
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(settled).toBe(false);
  });

  it('times out a Get Result whose body never ends, as a retryable timeout with the task id', async () => {
    const service = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"status":"success","response":');
      // …and nothing more, ever.
    });
    // The client's deadline runs on the fake clock; sockets stay real. The answer's head is awaited
    // as an event (the platform's fetch resolving), so the deadline is the one of reading the body.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let headArrived!: () => void;
    const head = new Promise<void>((resolve) => (headArrived = resolve));
    const client = createTaskClient({
      baseUrl: service.url,
      ...tokens,
      requestTimeoutMs: 200,
      fetch: async (request) => {
        const response = await fetch(request);
        headArrived();
        return response;
      },
    });
    let settled = false;
    const outcome = failure(client.getResult('echo', 'task-1')).finally(() => (settled = true));
    await head;
    await vi.advanceTimersByTimeAsync(199);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcome).toMatchObject({ code: 'timeout', retryable: true, taskId: 'task-1' });
    vi.useRealTimers();
    await service.closed(0);
  });

  it('times out a Submit and an Options that get no answer, and lets a caller’s abort be an abort', async () => {
    let received!: () => void;
    const service = await serve(() => received());
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const client = createTaskClient({ baseUrl: service.url, ...tokens, requestTimeoutMs: 150 });
    // Each request is awaited at the server (an event), then the fake clock passes its deadline.
    const answered = async (call: () => Promise<unknown>) => {
      const arrived = new Promise<void>((resolve) => (received = resolve));
      const outcome = failure(call());
      await arrived;
      await vi.advanceTimersByTimeAsync(150);
      return outcome;
    };
    expect(await answered(() => client.submit('echo', {}))).toMatchObject({
      code: 'timeout',
      retryable: true,
    });
    expect(await answered(() => client.options('echo', {}))).toMatchObject({ code: 'timeout' });
    vi.useRealTimers();
    const controller = new AbortController();
    const arrived = new Promise<void>((resolve) => (received = resolve));
    const pending = failure(client.getResult('echo', 'task-1', { signal: controller.signal }));
    await arrived;
    controller.abort();
    expect(await pending).toMatchObject({ code: 'aborted' });
  });
});

describe('createTaskClient answer sizes', () => {
  it('refuses a JSON answer past maxResponseBytes while reading it, not after', async () => {
    let written = 0;
    const service = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      const chunk = `${' '.repeat(64 * 1024 - 1)}\n`;
      const writeMore = () => {
        // 64 MiB at most, so a client that reads it all would take its time, not forever.
        while (written < 64 * 1024 * 1024 && !response.destroyed) {
          written += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', writeMore);
        }
        response.end();
      };
      response.write('{"status":"success","response":');
      writeMore();
    });
    const client = createTaskClient({
      baseUrl: service.url,
      ...tokens,
      maxResponseBytes: 1024 * 1024,
    });
    const error = await failure(client.getResult('echo', 'task-1'));
    expect(error.code).toBe('protocol');
    expect(error.message).toContain('larger than 1048576 bytes');
    await service.closed(0);
    expect(written).toBeLessThan(16 * 1024 * 1024);
  });

  it('accepts an answer just under the cap', async () => {
    const body = JSON.stringify({ status: 'success', response: record('task-1') });
    const service = await serve((_request, response) => sendJson(response, 200, JSON.parse(body)));
    const client = createTaskClient({
      baseUrl: service.url,
      ...tokens,
      maxResponseBytes: Buffer.byteLength(body),
    });
    expect((await client.getResult('echo', 'task-1')).status).toBe('IN_PROGRESS');
  });

  it('keeps at most 64 KiB of an error body, and says it was cut', async () => {
    const page = `<html>${'x'.repeat(5 * 1024 * 1024)}</html>`;
    const service = await serve((_request, response) => {
      response.writeHead(502, { 'content-type': 'text/html' });
      response.end(page);
    });
    const client = createTaskClient({ baseUrl: service.url, ...tokens });
    const error = await failure(client.getResult('echo', 'task-1'));
    expect(error).toMatchObject({ code: 'http', status: 502, retryable: true });
    expect(typeof error.body).toBe('string');
    expect((error.body as string).length).toBeLessThan(65 * 1024);
    expect(error.body).toMatch(/^<html>x+\n\[cut: the body was larger than 65536 bytes\]$/);
  });
});

describe('createTaskClient app functions', () => {
  it('turns a token function that throws into a retryable auth error that quotes no token', async () => {
    const service = await serve((_request, response) => sendJson(response, 200, {}));
    const cause = new Error('refresh failed');
    const client = createTaskClient({
      baseUrl: service.url,
      userToken: () => Promise.reject(cause),
      clientToken: 'client-secret',
    });
    const error = await failure(client.getResult('echo', 'task-1'));
    expect(error).toMatchObject({ code: 'auth', retryable: true, cause });
    expect(error.message).not.toContain('client-secret');
    expect(service.requests).toHaveLength(0);
  });

  it('turns an onUnauthorized that throws into an auth error', async () => {
    const service = await serve((_request, response) =>
      sendJson(response, 401, {
        status: 'error',
        statusCode: 401,
        reason: 'UNAUTHENTICATED',
        message: 'Unknown token.',
      }),
    );
    const client = createTaskClient({
      baseUrl: service.url,
      ...tokens,
      onUnauthorized: () => {
        throw new Error('sign-in page closed');
      },
    });
    expect(await failure(client.options('echo', {}))).toMatchObject({
      code: 'auth',
      retryable: true,
    });
    expect(service.requests).toHaveLength(1);
  });
});

describe('createTaskClient base URL', () => {
  it('refuses user info and other schemes at creation, without echoing the credentials', () => {
    for (const baseUrl of [
      'https://admin:hunter2@tasks.example.com',
      'https://admin@tasks.example.com',
      'ftp://tasks.example.com',
      'javascript:alert(1)',
      'http://exa mple.com',
      '//tasks.example.com',
      '',
    ]) {
      let thrown: unknown;
      try {
        createTaskClient({ baseUrl, ...tokens });
      } catch (error) {
        thrown = error;
      }
      expect(TaskwireError.isInstance(thrown), baseUrl).toBe(true);
      expect(thrown).toMatchObject({ code: 'protocol', reason: 'INVALID_BASE_URL' });
      expect((thrown as Error).message).not.toContain('hunter2');
      expect((thrown as Error).message).not.toContain('admin');
    }
    expect(createTaskClient({ baseUrl: '/taskwire', ...tokens }).scope).toBe('/taskwire');
  });
});

describe('createTaskClient network errors', () => {
  async function closedPort(): Promise<number> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));
    return port;
  }

  it('names the method and URL, and says when nothing could be sent', async () => {
    const port = await closedPort();
    const client = createTaskClient({ baseUrl: `http://127.0.0.1:${port}`, ...tokens });
    const error = await failure(client.getResult('echo', 'task-1'));
    expect(error).toMatchObject({ code: 'network', reason: 'CONNECT_FAILED', taskId: 'task-1' });
    expect(error.message).toBe(
      `GET http://127.0.0.1:${port}/workflows/echo/task-1/result: could not connect (ECONNREFUSED); nothing was sent.`,
    );
  });

  it('says when an answer broke off after it began', async () => {
    const service = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      // Destroyed once the head and the first bytes are on their way, not at once.
      response.write('{"status":', () => response.destroy());
    });
    const client = createTaskClient({ baseUrl: service.url, ...tokens });
    const error = await failure(client.getResult('echo', 'task-1'));
    expect(error).toMatchObject({ code: 'network', taskId: 'task-1' });
    expect(error.message).toContain('broke while the answer was being read');
  });
});
