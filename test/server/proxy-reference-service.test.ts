/**
 * The proxy of `taskwire/server` in front of the reference service, both on loopback sockets, with
 * the real client in front of the proxy holding no token at all: the app's session (a cookie) is
 * all the browser has, and `authorize` maps it to the user's token on the server
 * (docs/protocol.md, "The server proxy").
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import * as z from 'zod/mini';
import { createTaskClient } from '../../src/client/index.js';
import {
  createReferenceService,
  defineTask,
  DEMO_CLIENT_TOKEN,
  DEMO_USER_TOKEN,
  OTHER_USER_TOKEN,
} from '../../src/reference/index.js';
import {
  createNodeHandler,
  startReferenceServer,
  type ReferenceServer,
} from '../../src/reference/node/index.js';
import { createTaskProxy, type TaskProxyOptions } from '../../src/server/index.js';

const BASE_PATH = '/api/taskwire';
/** The app's own sessions: a cookie value → the user's token at the service. */
const SESSIONS: Record<string, string> = { alice: DEMO_USER_TOKEN, bob: OTHER_USER_TOKEN };

const servers: ReferenceServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** Resolves the returned promise's `open` when called: a task waits on it. */
function gate(): { opened: Promise<void>; open(): void } {
  let open = (): void => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

const gateOfTask = gate();
/** A task that reports progress, emits an event, then waits for the test before it ends. */
const gatedTask = defineTask({
  name: 'gated',
  params: z.object({}),
  run: async (context) => {
    context.progress(10, 1);
    context.emit('started', {});
    await gateOfTask.opened;
    return { done: true };
  },
});

/** The session cookie's value of a request, as an app's own session code would read it. */
function sessionOf(request: Request): string | undefined {
  return /(?:^|;\s*)session=([^;]+)/.exec(request.headers.get('cookie') ?? '')?.[1];
}

/**
 * The reference service and the proxy in front of it, each on its own loopback port; the proxy
 * reads the app's session cookie.
 */
async function openProxy(overrides: Partial<TaskProxyOptions> = {}) {
  const service = await startReferenceServer({
    service: createReferenceService({ timeScale: 0.01, basePath: '/v1' }),
  });
  servers.push(service);
  const proxy = createTaskProxy({
    target: `${service.url}/v1`,
    clientToken: DEMO_CLIENT_TOKEN,
    tasks: ['echo', 'render-video', 'generate-images', 'translate-text', 'failing-task'],
    basePath: BASE_PATH,
    authorize: (request) => {
      const userToken = SESSIONS[sessionOf(request) ?? ''];
      return userToken === undefined
        ? Response.json(
            { status: 'error', statusCode: 401, reason: 'UNAUTHENTICATED', message: 'Sign in.' },
            { status: 401 },
          )
        : { userToken };
    },
    ...overrides,
  });
  const server = await startReferenceServer({ service: proxy });
  servers.push(server);
  return { serviceUrl: `${service.url}/v1`, proxyUrl: server.url };
}

/** A client of the proxy with no token, whose requests carry the app's session cookie. */
function clientOf(proxyUrl: string, session = 'alice') {
  return createTaskClient({
    baseUrl: `${proxyUrl}${BASE_PATH}`,
    fetch: (request) => {
      const headers = new Headers(request.headers);
      headers.set('cookie', `session=${session}`);
      return fetch(new Request(request, { headers }));
    },
  });
}

describe('createTaskProxy in front of the reference service', () => {
  it('submits and polls to COMPLETED for the session user, with no token in the client', async () => {
    const { proxyUrl, serviceUrl } = await openProxy();
    const client = clientOf(proxyUrl);

    const accepted = await client.submit('render-video', { frames: 3, frameMs: 10 });
    let record = await client.getResult('render-video', accepted.id);
    while (record.status !== 'COMPLETED' && record.status !== 'FAILED') {
      record = await client.getResult('render-video', accepted.id);
    }

    expect(record).toMatchObject({ id: accepted.id, status: 'COMPLETED', usage: { credits: 1.5 } });
    // The task is alice's at the service: her token reads it, bob's gets the unknown-id answer.
    const asAlice = await fetch(`${serviceUrl}/workflows/render-video/${accepted.id}/result`, {
      headers: {
        authorization: `Bearer ${DEMO_USER_TOKEN}`,
        'x-app-authorization': `Bearer ${DEMO_CLIENT_TOKEN}`,
      },
    });
    expect(asAlice.status).toBe(200);
    await expect(
      clientOf(proxyUrl, 'bob').getResult('render-video', accepted.id),
    ).rejects.toMatchObject({ code: 'http', status: 404, reason: 'RESULT_NOT_FOUND' });
  });

  it("answers Submit with a Location on the proxy's own path", async () => {
    const { proxyUrl } = await openProxy();

    const answer = await fetch(`${proxyUrl}${BASE_PATH}/workflows/echo/submit`, {
      method: 'POST',
      headers: { cookie: 'session=alice', 'content-type': 'application/json' },
      body: JSON.stringify({ params: { message: 'hi' } }),
    });
    const { response } = (await answer.json()) as { response: { id: string } };

    expect(answer.status).toBe(202);
    expect(answer.headers.get('location')).toBe(
      `${BASE_PATH}/workflows/echo/${response.id}/result`,
    );
    expect(answer.headers.get('x-task-id')).toBe(response.id);
    const followed = await fetch(`${proxyUrl}${answer.headers.get('location')}`, {
      headers: { cookie: 'session=alice' },
    });
    expect(followed.status).toBe(200);
  });

  it('streams a task event by event to its end', async () => {
    const { proxyUrl } = await openProxy();
    const client = clientOf(proxyUrl);

    const types: string[] = [];
    for await (const event of client.stream('render-video', { frames: 3, frameMs: 10 })) {
      types.push(event.type);
    }

    expect(types.filter((type) => type === 'event.frame-rendered')).toHaveLength(3);
    expect(types.at(-1)).toBe('task.completed');
  });

  it("marks every answer nosniff: the service's, its stream, its refusals, the proxy's own and authorize's", async () => {
    const { proxyUrl } = await openProxy();
    const at = (path: string) => `${proxyUrl}${BASE_PATH}${path}`;
    const post = (session: string, body: unknown, type = 'application/json') => ({
      method: 'POST',
      headers: { cookie: `session=${session}`, 'content-type': type },
      body: JSON.stringify(body),
    });

    const submitted = await fetch(
      at('/workflows/echo/submit'),
      post('alice', { params: { message: 'hi' } }),
    );
    const answers = [
      submitted,
      await fetch(`${proxyUrl}${submitted.headers.get('location')}`, {
        headers: { cookie: 'session=alice' },
      }),
      await fetch(at('/workflows/render-video/stream'), post('alice', { params: { frames: 1 } })),
      await fetch(
        at('/workflows/generate-images/options'),
        post('alice', { params: { prompt: 'a cat', count: 2 } }),
      ),
      await fetch(at('/workflows/render-video/submit'), post('alice', { params: { frames: 0 } })),
      await fetch(at('/workflows/echo/execute'), post('nobody', { params: {} })),
      await fetch(at('/workflows/slow-report/submit'), post('alice', { params: {} })),
      await fetch(at('/workflows/echo/submit'), post('alice', { params: {} }, 'text/plain')),
      await fetch(at('/workflows/echo/submit'), { headers: { cookie: 'session=alice' } }),
      await fetch(at('/workflows/echo/a%2Fb/result'), { headers: { cookie: 'session=alice' } }),
      await fetch(at('/admin'), { headers: { cookie: 'session=alice' } }),
      await fetch(at('/workflows/echo/submit'), { method: 'OPTIONS' }),
    ];

    expect(answers.map((answer) => answer.status)).toEqual([
      202, 200, 200, 200, 422, 401, 404, 415, 405, 404, 404, 204,
    ]);
    for (const answer of answers) {
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      await answer.body?.cancel();
    }
  });

  it('executes a task and previews its price', async () => {
    const { proxyUrl } = await openProxy();
    const client = clientOf(proxyUrl);

    const executed = await client.execute('echo', { message: 'through the proxy' });
    const quote = await client.options('generate-images', { prompt: 'a cat', count: 2 });

    expect(executed).toMatchObject({ status: 'COMPLETED', result: { echo: 'through the proxy' } });
    expect(quote).toMatchObject({ credits: 5 });
  });

  it("passes the service's refusals through with their status and error body", async () => {
    const { proxyUrl } = await openProxy();
    const client = clientOf(proxyUrl);

    await expect(client.submit('render-video', { frames: 0 })).rejects.toMatchObject({
      code: 'http',
      status: 422,
      reason: 'INVALID_PARAMS',
    });
  });

  it("answers with authorize's refusal when the app has no session, and starts nothing", async () => {
    const { proxyUrl } = await openProxy();
    const client = clientOf(proxyUrl, 'nobody');

    await expect(client.execute('echo', { message: 'x' })).rejects.toMatchObject({
      code: 'http',
      status: 401,
      reason: 'UNAUTHENTICATED',
    });
  });

  it('refuses a task off the allow-list like a task the service does not have', async () => {
    const { proxyUrl } = await openProxy();
    const client = clientOf(proxyUrl);

    // `slow-report` exists at the service, but the app does not let the browser start it.
    await expect(client.submit('slow-report', {})).rejects.toMatchObject({
      code: 'http',
      status: 404,
      reason: 'TASK_NOT_FOUND',
    });
  });

  it('passes the first event of a stream on while the task still runs', async () => {
    const service = await startReferenceServer({
      service: createReferenceService({ tasks: [gatedTask], timeScale: 0.01 }),
    });
    servers.push(service);
    const proxy = createTaskProxy({
      target: service.url,
      clientToken: DEMO_CLIENT_TOKEN,
      tasks: ['gated'],
    });
    const server = await startReferenceServer({ service: proxy });
    servers.push(server);
    const client = createTaskClient({ baseUrl: server.url, userToken: DEMO_USER_TOKEN });

    const types: string[] = [];
    for await (const event of client.stream('gated', {})) {
      types.push(event.type);
      // The task waits on this gate: a proxy that held the stream back until the task ended would
      // never get here, and the test would time out.
      if (event.type === 'event.started') gateOfTask.open();
    }

    expect(types).toContain('task.progress');
    expect(types.at(-1)).toBe('task.completed');
  });

  it("passes the service's keep-alive comments on while a task is silent", async () => {
    const silence = gate();
    const silentTask = defineTask({
      name: 'silent',
      params: z.object({}),
      run: async () => {
        await silence.opened;
        return {};
      },
    });
    // At 0.001 the service's keep-alive comes after 15 ms of silence.
    const service = await startReferenceServer({
      service: createReferenceService({ tasks: [silentTask], timeScale: 0.001 }),
    });
    servers.push(service);
    // Without a log the service's stream is relayed as it comes; with one the page reads the log,
    // whose keep-alives test/server/proxy-event-log.test.ts checks.
    const proxy = createTaskProxy({
      target: service.url,
      clientToken: DEMO_CLIENT_TOKEN,
      tasks: ['silent'],
      events: false,
    });
    const server = await startReferenceServer({ service: proxy });
    servers.push(server);

    const answer = await fetch(`${server.url}/workflows/silent/stream`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${DEMO_USER_TOKEN}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ params: {} }),
    });
    const reader = answer.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!text.includes(': keep-alive')) {
      const { done, value } = await reader.read();
      if (done) break;
      text += value;
    }
    silence.open();
    while (!(await reader.read()).done) {
      // Read to the end, so the task's final event closes the stream.
    }

    expect(answer.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(text).toContain(': keep-alive');
  });

  it('serves through createNodeHandler where the framework strips the mount path, as Express does', async () => {
    const service = await startReferenceServer({
      service: createReferenceService({ timeScale: 0.01 }),
    });
    servers.push(service);
    // No basePath: the mount path is gone from the URL by the time the proxy sees it.
    const proxy = createTaskProxy({
      target: service.url,
      clientToken: DEMO_CLIENT_TOKEN,
      tasks: ['echo'],
    });
    const handler = createNodeHandler(proxy, { pathPrefix: BASE_PATH });
    // What `app.use('/api/taskwire', handler)` does to the request before calling the handler.
    const app = createServer((incoming, outgoing) => {
      if (!incoming.url?.startsWith(`${BASE_PATH}/`)) {
        outgoing.writeHead(404).end();
        return;
      }
      incoming.url = incoming.url.slice(BASE_PATH.length);
      void handler(incoming, outgoing);
    });
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => {
      app.closeAllConnections();
      app.close();
    });
    const { port } = app.address() as AddressInfo;
    const client = createTaskClient({
      baseUrl: `http://127.0.0.1:${port}${BASE_PATH}`,
      userToken: DEMO_USER_TOKEN,
    });

    const answer = await fetch(`http://127.0.0.1:${port}${BASE_PATH}/workflows/echo/submit`, {
      method: 'POST',
      headers: { authorization: `Bearer ${DEMO_USER_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ params: { message: 'hi' } }),
    });
    const { response } = (await answer.json()) as { response: { id: string } };
    const executed = await client.execute('echo', { message: 'via express' });

    expect(answer.headers.get('location')).toBe(
      `${BASE_PATH}/workflows/echo/${response.id}/result`,
    );
    expect(executed).toMatchObject({ status: 'COMPLETED', result: { echo: 'via express' } });
  });
});
