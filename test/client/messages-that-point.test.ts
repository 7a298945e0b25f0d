/**
 * Messages that point at the mistake (docs/protocol.md, "The client"): an answer
 * that is not the service's names the URL that answered and the baseUrl; a request that got no
 * answer names its URL and says the service could not be reached, claiming that nothing was sent
 * only where the runtime proves it; a stream start says so in the same words.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTaskClient } from '../../src/client/index.js';
import { createReferenceService, demoTaskSchemas } from '../../src/reference/index.js';
import { pollTaskRecord } from '../support/poll-task-record.js';
import { createTaskStreamController } from '../../src/state/task-stream-controller.js';
import { startRawServer, type RawServer } from './raw-server.js';
import { failure } from '../support/failure.js';

let server: RawServer | undefined;

afterEach(async () => {
  vi.unstubAllGlobals();
  await server?.close();
  server = undefined;
});

/** Reads a stream to its end. */
async function drain(stream: AsyncIterable<unknown>): Promise<void> {
  for await (const event of stream) void event;
}

const streamFailure = (stream: AsyncIterable<unknown>) => failure(drain(stream));

/** A server that is not the service: a web server's 404 page for every path, or its app's HTML. */
async function notTheService(status: 404 | 200): Promise<RawServer> {
  return startRawServer((_request, response) => {
    if (status === 404) {
      response.writeHead(404, 'Not Found', { 'content-type': 'text/plain' });
      response.end('Cannot POST');
    } else {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<!doctype html><title>My app</title>');
    }
  });
}

const clientOf = (baseUrl: string) =>
  createTaskClient({ baseUrl, userToken: 'u', clientToken: 'c' });

describe('an answer that is not the service’s', () => {
  it('names the URL that answered a 404 and says the baseUrl may be wrong, in every mode', async () => {
    server = await notTheService(404);
    const client = clientOf(`${server.url}/api`);
    const calls: Array<[string, () => Promise<unknown>]> = [
      ['POST /api/workflows/echo/submit', () => client.submit('echo', { message: 'a' })],
      ['GET /api/workflows/echo/t1/result', () => client.getResult('echo', 't1')],
      ['POST /api/workflows/echo/execute', () => client.execute('echo', { message: 'a' })],
      ['POST /api/workflows/echo/options', () => client.options('echo', { message: 'a' })],
      ['POST /api/workflows/echo/stream', () => drain(client.stream('echo', {}))],
    ];
    for (const [request, call] of calls) {
      const error = await failure(call());
      const [method, path] = request.split(' ');
      expect(error.code, request).toBe('http');
      expect(error.status, request).toBe(404);
      expect(error.reason, request).toBe('NOT_A_TASKWIRE_ANSWER');
      expect(error.message, request).toContain(`${method} ${server.url}${path} did not answer`);
      expect(error.message, request).toContain('the baseUrl may be wrong');
      expect(error.body, request).toBe('Cannot POST');
    }
  });

  it('names the URL that answered a 200 HTML page, for JSON calls and streams', async () => {
    server = await notTheService(200);
    const client = clientOf(server.url);
    const options = await failure(client.options('echo', { message: 'a' }));
    expect(options).toMatchObject({ code: 'protocol', reason: 'NOT_A_TASKWIRE_ANSWER' });
    expect(options.message).toContain(`POST ${server.url}/workflows/echo/options did not answer`);
    expect(options.message).toContain('the baseUrl may be wrong');
    const stream = await streamFailure(client.stream('echo', {}));
    expect(stream).toMatchObject({ code: 'protocol', reason: 'NOT_A_TASKWIRE_ANSWER' });
    expect(stream.message).toContain(`POST ${server.url}/workflows/echo/stream did not answer`);
  });

  it('keeps the service’s own error body as it is', async () => {
    const service = createReferenceService();
    const client = createTaskClient({
      baseUrl: 'http://taskwire.test',
      userToken: 'demo-user-token',
      clientToken: 'demo-client-token',
      fetch: (request) => service.fetch(request),
    });
    const error = await failure(client.options('no-such-task', {}));
    expect(error).toMatchObject({ code: 'http', status: 404, reason: 'TASK_NOT_FOUND' });
    expect(error.message).toBe("The service answered 404 TASK_NOT_FOUND: No task 'no-such-task'.");
    await service.close();
  });
});

describe('a request that got no answer', () => {
  const broken = () => Promise.reject(new TypeError('fetch failed'));

  it('names its URL and says the service could not be reached, without claiming nothing was sent', async () => {
    const client = createTaskClient({ baseUrl: 'http://taskwire.test', fetch: broken });
    const error = await failure(client.options('echo', { message: 'a' }));
    expect(error.code).toBe('network');
    expect(error.reason).toBeUndefined();
    expect(error.message).toBe(
      'POST http://taskwire.test/workflows/echo/options got no answer: the service could not be reached, or the connection broke before it answered, so the outcome is unknown. Check that the service runs there and that the baseUrl is right.',
    );
  });

  it('is CONNECT_FAILED, nothing sent, in a browser that says it is offline', async () => {
    vi.stubGlobal('navigator', { onLine: false });
    const client = createTaskClient({ baseUrl: 'http://taskwire.test', fetch: broken });
    const error = await failure(client.getResult('echo', 't1'));
    expect(error).toMatchObject({ code: 'network', reason: 'CONNECT_FAILED', retryable: true });
    expect(error.message).toBe(
      'GET http://taskwire.test/workflows/echo/t1/result: could not connect (the browser is offline); nothing was sent.',
    );
  });

  it('is CONNECT_FAILED where Node proves the connection was refused, for a stream start too', async () => {
    server = await notTheService(404);
    const url = server.url;
    await server.close();
    server = undefined;
    const client = clientOf(url);
    const options = await failure(client.options('echo', { message: 'a' }));
    const stream = await streamFailure(client.stream('echo', {}));
    for (const error of [options, stream]) {
      expect(error).toMatchObject({ code: 'network', reason: 'CONNECT_FAILED' });
    }
    expect(options.message).toBe(
      `POST ${url}/workflows/echo/options: could not connect (ECONNREFUSED); nothing was sent.`,
    );
    expect(stream.message).toBe(
      `POST ${url}/workflows/echo/stream: could not connect (ECONNREFUSED); nothing was sent.`,
    );
  });
});

describe('a stream start that got no answer', () => {
  it('shows the words of every request, not those of a stream that broke mid-task', async () => {
    const client = createTaskClient({
      baseUrl: 'http://taskwire.test',
      tasks: demoTaskSchemas,
      fetch: () => Promise.reject(new TypeError('fetch failed')),
    });
    const controller = createTaskStreamController({
      openStream: (params: { message: string }, options) => client.stream('echo', params, options),
      watchRecord: pollTaskRecord((id, options) => client.getResult('echo', id, options)),
      createScheduler: (flush: () => void) => ({
        schedule: flush,
        flushSoon: flush,
        flushNow: flush,
        cancel: () => undefined,
      }),
    });
    const settled = new Promise<void>((resolve) => {
      controller.subscribe(() => {
        if (controller.getSnapshot().status === 'error') resolve();
      });
    });
    controller.start({ message: 'a' });
    await settled;
    const { error } = controller.getSnapshot();
    expect(error?.code).toBe('network');
    expect(error?.message).toBe(
      'POST http://taskwire.test/workflows/echo/stream got no answer: the service could not be reached, or the connection broke before it answered, so the outcome is unknown. Check that the service runs there and that the baseUrl is right.',
    );
  });
});
