/**
 * Each rule of the server proxy (docs/protocol.md, "The server proxy"), checked against a recording
 * upstream: a `node:http` server that records what the proxy sent and answers what the test needs.
 * The proxy itself runs on loopback behind the node adapter, as an Express or `node:http` app would
 * serve it, and the browser's side is a plain `fetch`.
 */
import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { text } from 'node:stream/consumers';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { createTaskClient } from '../../src/client/index.js';
import { errorBodySchema } from '../../src/protocol/error-body.js';
import { startReferenceServer } from '../../src/reference/node/index.js';
import { createTaskProxy, type TaskProxyOptions } from '../../src/server/index.js';
import { answerJson, startRecordingUpstream, type UpstreamHandler } from './recording-upstream.js';

const BASE_PATH = '/api/taskwire';

/** Serves a proxy to `target` on loopback; resolves to the base URL a browser would use. */
async function serveProxy(options: Partial<TaskProxyOptions> & { target: string }) {
  const server = await startReferenceServer({
    service: createTaskProxy({
      clientToken: 'server-app-token',
      tasks: ['echo', 'render-video'],
      basePath: BASE_PATH,
      ...options,
    }),
  });
  onTestFinished(() => server.close());
  return `${server.url}${BASE_PATH}`;
}

/** A recording upstream at `/v1` answering with `handler`, and a proxy in front of it. */
async function proxiedUpstream(
  handler: UpstreamHandler,
  options: Omit<Partial<TaskProxyOptions>, 'target'> = {},
) {
  const upstream = await startRecordingUpstream(handler);
  const proxyUrl = await serveProxy({ target: `${upstream.url}/v1`, ...options });
  return { upstream, proxyUrl };
}

/**
 * A recording upstream answering with `handler`, and a proxy in front of it asked in-process,
 * through its Web `fetch`, where a test needs the body stream or the timers of its own.
 */
async function inProcessProxy(
  handler: UpstreamHandler,
  options: Omit<Partial<TaskProxyOptions>, 'target'> = {},
) {
  const upstream = await startRecordingUpstream(handler);
  const proxy = createTaskProxy({
    target: upstream.url,
    clientToken: 'server-app-token',
    tasks: ['echo', 'render-video'],
    ...options,
  });
  return { upstream, proxy };
}

/** Answers 202 like a Submit. */
const accept: UpstreamHandler = (_request, outgoing) =>
  answerJson(outgoing, 202, { status: 'success', response: { id: 'task-1', status: 'ACCEPTED' } });

/** The proxy's own refusal: checked against the protocol's error body, then returned. */
async function refusal(answer: Response) {
  return errorBodySchema.parse(await answer.json());
}

/** Reads `reader` until its text holds `wanted`; returns all of it. */
async function readUntil(reader: ReadableStreamDefaultReader<string>, wanted: string) {
  let text = '';
  while (!text.includes(wanted)) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`The body ended without '${wanted}': ${text}`);
    text += value;
  }
  return text;
}

const POST_JSON = { method: 'POST', headers: { 'content-type': 'application/json' } } as const;

describe('createTaskProxy: what goes upstream', () => {
  it('sends the app token from clientToken and drops the one the browser sent', async () => {
    let calls = 0;
    const { upstream, proxyUrl } = await proxiedUpstream(accept, {
      clientToken: () => {
        calls += 1;
        return 'server-app-token';
      },
    });

    const browserHeaders: Record<string, string> = {
      'x-app-authorization': 'Bearer token-the-browser-should-not-have',
      authorization: 'Bearer user-1',
      cookie: 'session=secret-session',
      platform: 'web',
      'x-touchpoint': 'checkout',
      'idempotency-key': 'key-1',
      'content-type': 'application/json',
      accept: 'application/json',
      'last-event-id': 'event-7',
      'x-forwarded-for': '203.0.113.9',
      'x-internal-flag': 'yes',
      origin: 'https://app.example',
      referer: 'https://app.example/page',
    };
    const body = JSON.stringify({ params: { message: 'hi' } });
    await fetch(`${proxyUrl}/workflows/echo/submit?debug=1`, {
      method: 'POST',
      headers: browserHeaders,
      body,
    });
    await fetch(`${proxyUrl}/workflows/echo/submit`, { ...POST_JSON, body });

    const [first] = upstream.requests;
    expect(first).toMatchObject({ method: 'POST', url: '/v1/workflows/echo/submit', body });
    expect(first!.headers).toMatchObject({
      'x-app-authorization': 'Bearer server-app-token',
      authorization: 'Bearer user-1',
      platform: 'web',
      'x-touchpoint': 'checkout',
      'idempotency-key': 'key-1',
      'content-type': 'application/json',
      accept: 'application/json',
      'last-event-id': 'event-7',
    });
    const passed = [
      'x-app-authorization',
      'authorization',
      'platform',
      'x-touchpoint',
      'idempotency-key',
      'content-type',
      'accept',
      'last-event-id',
    ];
    const leaked = Object.keys(browserHeaders).filter(
      (name) => !passed.includes(name) && first!.headers[name] !== undefined,
    );
    expect(leaked).toEqual([]);
    expect(calls).toBe(2);
  });

  it('replaces platform and x-touchpoint with its own when given', async () => {
    const { upstream, proxyUrl } = await proxiedUpstream(accept, {
      platform: 'server',
      touchpoint: 'proxy',
    });

    await fetch(`${proxyUrl}/workflows/echo/submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', platform: 'web', 'x-touchpoint': 'x' },
      body: '{"params":{}}',
    });

    expect(upstream.requests[0]!.headers).toMatchObject({
      platform: 'server',
      'x-touchpoint': 'proxy',
    });
  });

  it("sends the user token authorize found, not the browser's Authorization", async () => {
    const seen: string[] = [];
    const { upstream, proxyUrl } = await proxiedUpstream(accept, {
      authorize: async (request) => {
        seen.push(request.headers.get('cookie') ?? '');
        return { userToken: 'user-token-from-session' };
      },
    });

    await fetch(`${proxyUrl}/workflows/echo/submit`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: 'session=abc',
        authorization: 'Bearer forged-by-the-browser',
      },
      body: '{"params":{}}',
    });

    expect(seen).toEqual(['session=abc']);
    expect(upstream.requests[0]!.headers.authorization).toBe('Bearer user-token-from-session');
    expect(upstream.requests[0]!.headers.cookie).toBeUndefined();
  });

  it('answers with the Response authorize refused with, and asks the service nothing', async () => {
    const { upstream, proxyUrl } = await proxiedUpstream(accept, {
      authorize: () =>
        new Response('{"status":"error","statusCode":401,"reason":"UNAUTHENTICATED"}', {
          status: 401,
          headers: { 'content-type': 'application/json', 'www-authenticate': 'Session' },
        }),
    });

    const answer = await fetch(`${proxyUrl}/workflows/echo/submit`, {
      ...POST_JSON,
      body: '{"params":{}}',
    });

    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toBe('Session');
    expect(await answer.json()).toMatchObject({ reason: 'UNAUTHENTICATED' });
    expect(upstream.requests).toHaveLength(0);
  });

  it('refuses a task off the allow-list, or a name that breaks the rule, with 404 and no upstream request', async () => {
    const { upstream, proxyUrl } = await proxiedUpstream(accept);
    const viaPredicate = await serveProxy({
      target: upstream.url,
      tasks: (task) => task.startsWith('echo'),
    });

    const names = ['translate-text', '_x', 'a%2Fb', '-x', 'x'.repeat(200), 'echo%0A'];
    const answers = await Promise.all([
      ...names.map((name) =>
        fetch(`${proxyUrl}/workflows/${name}/submit`, { ...POST_JSON, body: '{"params":{}}' }),
      ),
      fetch(`${proxyUrl}/workflows/slow-report/task-1/result`),
      fetch(`${viaPredicate}/workflows/render-video/execute`, {
        ...POST_JSON,
        body: '{"params":{}}',
      }),
    ]);

    for (const answer of answers) {
      expect(answer.status).toBe(404);
      expect(await refusal(answer)).toMatchObject({ statusCode: 404, reason: 'TASK_NOT_FOUND' });
    }
    expect(upstream.requests).toHaveLength(0);
    // The predicate lets its own names through.
    await fetch(`${viaPredicate}/workflows/echo-twice/execute`, {
      ...POST_JSON,
      body: '{"params":{}}',
    });
    expect(upstream.requests.map((request) => request.url)).toEqual([
      '/workflows/echo-twice/execute',
    ]);
  });

  it('refuses a POST that is not JSON, as a form of another site would send it, with 415 and no upstream request', async () => {
    const { upstream, proxyUrl } = await proxiedUpstream(accept, {
      authorize: () => ({ userToken: 'user-token-from-session' }),
    });

    const answers = await Promise.all([
      fetch(`${proxyUrl}/workflows/echo/submit`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', cookie: 'session=abc' },
        body: '{"params":{"message":"forged"}}',
      }),
      fetch(`${proxyUrl}/workflows/echo/execute`, {
        method: 'POST',
        headers: { cookie: 'session=abc' },
        body: 'params=1',
      }),
    ]);

    for (const answer of answers) {
      expect(await refusal(answer)).toMatchObject({
        statusCode: 415,
        reason: 'UNSUPPORTED_MEDIA_TYPE',
      });
    }
    expect(upstream.requests).toHaveLength(0);
    // The service's own rule: a charset, if any, must be UTF-8 (docs/protocol.md, "Headers and tokens").
    const latin1 = await fetch(`${proxyUrl}/workflows/echo/submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=latin1' },
      body: '{"params":{}}',
    });
    expect(await refusal(latin1)).toMatchObject({ reason: 'UNSUPPORTED_MEDIA_TYPE' });
    expect(upstream.requests).toHaveLength(0);
    await fetch(`${proxyUrl}/workflows/echo/submit`, {
      method: 'POST',
      headers: { 'content-type': 'Application/JSON; charset=utf-8' },
      body: '{"params":{}}',
    });
    expect(upstream.requests).toHaveLength(1);
  });

  it('answers paths that are no endpoint, wrong methods and preflights itself', async () => {
    const { upstream, proxyUrl } = await proxiedUpstream(accept);

    const elsewhere = await fetch(`${proxyUrl}/admin/users`);
    const outside = await fetch(`${proxyUrl.replace(BASE_PATH, '')}/workflows/echo/submit`, {
      ...POST_JSON,
      body: '{}',
    });
    const wrongMethod = await fetch(`${proxyUrl}/workflows/echo/submit`);
    const preflight = await fetch(`${proxyUrl}/workflows/echo/submit`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://elsewhere.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });

    expect(await refusal(elsewhere)).toMatchObject({ statusCode: 404, reason: 'NOT_FOUND' });
    expect(await refusal(outside)).toMatchObject({ statusCode: 404, reason: 'NOT_FOUND' });
    expect(wrongMethod.headers.get('allow')).toBe('POST, OPTIONS');
    expect(await refusal(wrongMethod)).toMatchObject({
      statusCode: 405,
      reason: 'METHOD_NOT_ALLOWED',
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('allow')).toBe('POST, OPTIONS');
    // No other origin may call it: a browser refuses the call without this header.
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(upstream.requests).toHaveLength(0);
  });

  it('builds the path again from the checked name and id, and drops the query', async () => {
    const { upstream, proxyUrl } = await proxiedUpstream((_request, outgoing) =>
      answerJson(outgoing, 200, { status: 'success', response: {} }),
    );

    await fetch(`${proxyUrl}/workflows/echo/task:1+2/result?token=x`);

    expect(upstream.requests.map((request) => request.url)).toEqual([
      '/v1/workflows/echo/task%3A1%2B2/result',
    ]);
  });

  it('passes only opaque ids: one that a hop behind could decode into a path is 404 TASK_NOT_FOUND, and nothing goes upstream', async () => {
    const { upstream, proxyUrl } = await proxiedUpstream((_request, outgoing) =>
      answerJson(outgoing, 200, { status: 'success', response: {} }),
    );
    // Each as the browser sends it, still encoded; the proxy decodes it once, as the route does.
    const ids = [
      '..%2Fadmin', // a path step, once a hop behind decodes %2F
      '..%2F..%2Fother-task%2Ftask-1',
      'a%2Fb',
      'a%5Cb', // a backslash, a slash to many servers
      'a%3Fb', // a query
      'a%23b', // a fragment
      'a%25b', // a percent sign: %252F is %2F after one more decoding
      '%252F',
      'a%20b', // whitespace
      'a%09b',
      '%C2%A0', // a no-break space
      'a%0Ab', // control characters: C0, DEL and C1
      'a%00b',
      'a%7Fb',
      'a%C2%85b',
      'i'.repeat(257),
    ];

    const answers = await Promise.all(
      ids.map((id) => fetch(`${proxyUrl}/workflows/echo/${id}/result`)),
    );

    for (const answer of answers) {
      expect(answer.status).toBe(404);
      expect(await refusal(answer)).toMatchObject({ statusCode: 404, reason: 'TASK_NOT_FOUND' });
    }
    expect(upstream.requests).toHaveLength(0);
    // An opaque id of any other character passes, encoded again.
    const passed = await fetch(`${proxyUrl}/workflows/echo/0f8e-%C3%A9:~!*'()@$,;=/result`);
    expect(passed.status).toBe(200);
    expect(upstream.requests.map((request) => request.url)).toEqual([
      "/v1/workflows/echo/0f8e-%C3%A9%3A~!*'()%40%24%2C%3B%3D/result",
    ]);
  });
});

describe('createTaskProxy: what comes back', () => {
  it('passes the status, the body and the exposed headers, and nothing else of the service', async () => {
    const errorBody = {
      status: 'error',
      statusCode: 429,
      reason: 'TOO_MANY_TASKS',
      message: 'Too many tasks.',
    };
    const { proxyUrl } = await proxiedUpstream((_request, outgoing) =>
      answerJson(outgoing, 429, errorBody, {
        'retry-after': '3',
        'x-task-id': 'task-9',
        'cache-control': 'no-store',
        'set-cookie': ['upstream-session=1; Path=/'],
        'x-internal-host': 'tasks-7.internal',
        'access-control-allow-origin': '*',
      }),
    );

    const answer = await fetch(`${proxyUrl}/workflows/echo/submit`, {
      ...POST_JSON,
      body: '{"params":{}}',
    });

    expect(answer.status).toBe(429);
    expect(await answer.json()).toEqual(errorBody);
    expect(Object.fromEntries(answer.headers)).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      'retry-after': '3',
      'x-task-id': 'task-9',
    });
    expect(answer.headers.get('set-cookie')).toBeNull();
    expect(answer.headers.get('x-internal-host')).toBeNull();
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
  });

  it("rewrites Location to the proxy's own path, and drops one that points elsewhere", async () => {
    let location = '';
    const { upstream, proxyUrl } = await proxiedUpstream((_request, outgoing) =>
      answerJson(
        outgoing,
        202,
        { status: 'success', response: { id: 'task-1', status: 'ACCEPTED' } },
        { location },
      ),
    );
    const submit = async (answerLocation: string) => {
      location = answerLocation;
      const answer = await fetch(`${proxyUrl}/workflows/echo/submit`, {
        ...POST_JSON,
        body: '{"params":{}}',
      });
      return answer.headers.get('location');
    };

    expect(await submit('/v1/workflows/echo/task-1/result')).toBe(
      `${BASE_PATH}/workflows/echo/task-1/result`,
    );
    expect(await submit(`${upstream.url}/v1/workflows/echo/task-1/result`)).toBe(
      `${BASE_PATH}/workflows/echo/task-1/result`,
    );
    expect(await submit('https://elsewhere.example/v1/workflows/echo/task-1/result')).toBeNull();
    expect(await submit('/admin/workflows/echo/task-1/result')).toBeNull();
  });

  it("never serves the service's page on the app's origin: an answer that is neither JSON nor a stream is 502 UPSTREAM_NOT_JSON", async () => {
    // A service's error page that echoes the path: on the app's origin, its script would run with
    // the user's session.
    let status = 200;
    let contentType: string | undefined = 'text/html; charset=utf-8';
    const { upstream, proxyUrl } = await proxiedUpstream((request, outgoing) => {
      outgoing.writeHead(status, contentType === undefined ? {} : { 'content-type': contentType });
      outgoing.end(
        `<html><body>No page at ${decodeURIComponent(request.url)}<script>steal()</script>`,
      );
    });
    const ask = async (answerStatus: number, answerType: string | undefined) => {
      status = answerStatus;
      contentType = answerType;
      const [read, stream] = [
        await fetch(`${proxyUrl}/workflows/echo/<svg>/result`),
        await fetch(`${proxyUrl}/workflows/render-video/stream`, {
          ...POST_JSON,
          body: '{"params":{}}',
        }),
      ];
      return [read, stream];
    };

    const answers = [
      ...(await ask(200, 'text/html; charset=utf-8')),
      ...(await ask(404, 'text/html')),
      ...(await ask(500, 'text/plain')),
      ...(await ask(200, undefined)),
      ...(await ask(200, 'application/jsonp')),
    ];

    for (const answer of answers) {
      expect(answer.status).toBe(502);
      expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      const text = await answer.text();
      expect(text).not.toContain('<script>');
      expect(errorBodySchema.parse(JSON.parse(text))).toMatchObject({
        statusCode: 502,
        reason: 'UPSTREAM_NOT_JSON',
      });
    }
    expect(upstream.requests).toHaveLength(answers.length);
  });

  it('passes JSON of any +json type, and marks every answer nosniff', async () => {
    const { proxyUrl } = await proxiedUpstream((_request, outgoing) =>
      answerJson(
        outgoing,
        409,
        { status: 'error', statusCode: 409, reason: 'BUSY', message: 'Busy.' },
        { 'content-type': 'application/problem+json', 'x-content-type-options': 'sniff-away' },
      ),
    );

    const answer = await fetch(`${proxyUrl}/workflows/echo/task-1/result`);

    expect(answer.status).toBe(409);
    expect(answer.headers.get('content-type')).toBe('application/problem+json');
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await refusal(answer)).toMatchObject({ reason: 'BUSY' });
  });

  it('never follows a redirect: a 3xx is 502 UPSTREAM_REDIRECT and its target gets nothing', async () => {
    const elsewhere = await startRecordingUpstream(accept);
    const { upstream, proxyUrl } = await proxiedUpstream((request, outgoing) => {
      outgoing.writeHead(request.method === 'GET' ? 302 : 307, {
        location: `${elsewhere.url}/steal`,
      });
      outgoing.end();
    });

    const submit = await fetch(`${proxyUrl}/workflows/echo/submit`, {
      ...POST_JSON,
      headers: { ...POST_JSON.headers, authorization: 'Bearer user-1' },
      body: '{"params":{}}',
    });
    const read = await fetch(`${proxyUrl}/workflows/echo/task-1/result`);

    expect(await refusal(submit)).toMatchObject({ statusCode: 502, reason: 'UPSTREAM_REDIRECT' });
    expect(await refusal(read)).toMatchObject({ statusCode: 502, reason: 'UPSTREAM_REDIRECT' });
    expect(upstream.requests).toHaveLength(2);
    expect(elsewhere.requests).toHaveLength(0);
  });
});

describe('createTaskProxy: streams', () => {
  it('passes each chunk on as it comes, keep-alives included, before the stream ends', async () => {
    let finish = (): void => {};
    const { proxyUrl } = await proxiedUpstream((_request, outgoing) => {
      outgoing.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        'x-task-id': 'task-1',
      });
      outgoing.write(': keep-alive\n\n');
      finish = () => {
        outgoing.write('data: {"type":"task.completed","result":{}}\n\n');
        outgoing.end();
      };
    });

    const answer = await fetch(`${proxyUrl}/workflows/render-video/stream`, {
      ...POST_JSON,
      body: '{"params":{}}',
    });
    const reader = answer.body!.pipeThrough(new TextDecoderStream()).getReader();
    // The upstream has not ended: only a proxy that passes chunks on gets this far.
    const before = await readUntil(reader, ': keep-alive\n\n');
    finish();
    const after = await readUntil(reader, 'task.completed');

    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-task-id')).toBe('task-1');
    expect(answer.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(answer.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(before).toBe(': keep-alive\n\n');
    expect(after).toBe('data: {"type":"task.completed","result":{}}\n\n');
    expect((await reader.read()).done).toBe(true);
  });

  it('aborts the request to the service when the browser goes away', async () => {
    const { upstream, proxyUrl } = await proxiedUpstream((_request, outgoing) => {
      outgoing.writeHead(200, { 'content-type': 'text/event-stream' });
      outgoing.write('data: {"type":"task.progress","percent":1}\n\n');
    });
    const browser = new AbortController();

    const answer = await fetch(`${proxyUrl}/workflows/render-video/stream`, {
      ...POST_JSON,
      body: '{"params":{}}',
      signal: browser.signal,
    });
    const reader = answer.body!.pipeThrough(new TextDecoderStream()).getReader();
    await readUntil(reader, 'task.progress');
    browser.abort();

    // Resolves only when the service's side of the connection closed before its answer ended.
    await upstream.request(0).then((request) => request.aborted);
    expect(upstream.requests).toHaveLength(1);
  });

  it('aborts the request to the service when the request signal aborts before any answer', async () => {
    const { upstream, proxy } = await inProcessProxy(() => {});
    const browser = new AbortController();

    const answering = proxy.fetch(
      new Request('http://app.test/workflows/render-video/stream', {
        ...POST_JSON,
        body: '{"params":{}}',
        signal: browser.signal,
      }),
    );
    const request = await upstream.request(0);
    browser.abort();

    await request.aborted;
    await answering;
  });

  it('aborts the request to the service when the browser cancels the answer body', async () => {
    const { upstream, proxy } = await inProcessProxy((_request, outgoing) => {
      outgoing.writeHead(200, { 'content-type': 'text/event-stream' });
      outgoing.write(': keep-alive\n\n');
    });

    const answer = await proxy.fetch(
      new Request('http://app.test/workflows/render-video/stream', {
        ...POST_JSON,
        body: '{"params":{}}',
      }),
    );
    const reader = answer.body!.getReader();
    await reader.read();
    await reader.cancel();

    await upstream.request(0).then((request) => request.aborted);
  });

  it("breaks the browser's stream off and aborts upstream when the service goes silent", async () => {
    const { upstream, proxyUrl } = await proxiedUpstream(
      (_request, outgoing) => {
        outgoing.writeHead(200, { 'content-type': 'text/event-stream', 'x-task-id': 'task-1' });
        outgoing.write('data: {"type":"task.progress","percent":1}\n\n');
      },
      { streamIdleTimeoutMs: 50 },
    );

    const answer = await fetch(`${proxyUrl}/workflows/render-video/stream`, {
      ...POST_JSON,
      body: '{"params":{}}',
    });
    const reader = answer.body!.pipeThrough(new TextDecoderStream()).getReader();
    await readUntil(reader, 'task.progress');

    await expect(readUntil(reader, 'never comes')).rejects.toThrow();
    await upstream.request(0).then((request) => request.aborted);
  });

  it("cuts off a page that reads nothing of a stream for streamIdleTimeoutMs, and aborts the service's request", async () => {
    // The service is fast, an event every 10 ms, so only the page's silence can reach the limit.
    const { upstream, proxy } = await inProcessProxy(
      (_request, outgoing) => {
        outgoing.writeHead(200, { 'content-type': 'text/event-stream', 'x-task-id': 'task-1' });
        const events = setInterval(() => {
          outgoing.write('data: {"type":"task.progress","percent":1,"estimatedSecondsLeft":1}\n\n');
        }, 10);
        outgoing.on('close', () => clearInterval(events));
      },
      { streamIdleTimeoutMs: 100 },
    );
    const start = () =>
      proxy.fetch(
        new Request('http://app.test/workflows/render-video/stream', {
          ...POST_JSON,
          body: '{"params":{}}',
        }),
      );

    // A page that never pulls a byte, and one that reads once and then stops: backpressure only.
    const neverRead = await start();
    const readOnce = await start();
    const reader = readOnce.body!.getReader();
    expect((await reader.read()).done).toBe(false);

    await upstream.request(0).then((request) => request.aborted);
    await upstream.request(1).then((request) => request.aborted);
    // Cut, never ended: a page that comes back sees a broken stream, not one that looks complete.
    await expect(reader.read()).rejects.toThrow();
    await expect(neverRead.text()).rejects.toThrow();
  });

  it('lets the client recover a silent stream by its task id', async () => {
    const { proxyUrl } = await proxiedUpstream(
      (_request, outgoing) => {
        outgoing.writeHead(200, { 'content-type': 'text/event-stream', 'x-task-id': 'task-1' });
        outgoing.write('data: {"type":"task.progress","percent":1,"estimatedSecondsLeft":1}\n\n');
      },
      { streamIdleTimeoutMs: 50 },
    );
    const client = createTaskClient({ baseUrl: proxyUrl });

    const types: string[] = [];
    const reading = (async () => {
      for await (const event of client.stream('render-video', {})) types.push(event.type);
    })();

    await expect(reading).rejects.toMatchObject({ code: 'network', taskId: 'task-1' });
    expect(types).toEqual(['task.progress']);
  });
});

describe('createTaskProxy: a resumable service passed on as a 0.3 stream (events: false)', () => {
  /** A resumable service's stream of `text`, behind a proxy without a log; the page's text. */
  async function framedPlain(...parts: string[]) {
    const { proxyUrl } = await proxiedUpstream(
      async (_request, outgoing) => {
        outgoing.writeHead(200, {
          'content-type': 'text/event-stream; charset=utf-8',
          'x-task-id': 'task-1',
          'x-taskwire-resumable': '1',
        });
        for (const part of parts) outgoing.write(part);
        outgoing.end();
      },
      { events: false },
    );
    const answer = await fetch(`${proxyUrl}/workflows/render-video/stream`, {
      ...POST_JSON,
      body: '{"params":{}}',
    });
    return answer.text();
  }

  it('reads the stream as the client does: a final CR ends the last line', async () => {
    const final = '{"type":"task.completed","result":null}';
    // CR line ends, the last blank line's CR the last byte of the body.
    const text = await framedPlain(`id: 0000000000000001\rdata: ${final}\r`, '\r');
    expect(text).toBe(`data: ${final}\n\n`);
  });

  it('holds no event past the reader’s cap of 16 MiB: the stream breaks off instead', async () => {
    const huge = `data: {"type":"task.progress","x":"${'x'.repeat(17 * 1024 * 1024)}"}\n\n`;
    const page = await framedPlain(huge).then(
      (text) => `ended after ${text.length} characters`,
      () => 'broke',
    );
    expect(page).toBe('broke');
  });
});

describe('createTaskProxy: deadlines and limits', () => {
  it('answers 504 UPSTREAM_TIMEOUT past requestTimeoutMs, and aborts the request to the service', async () => {
    const { upstream, proxyUrl } = await proxiedUpstream(() => {}, { requestTimeoutMs: 50 });

    const answer = await fetch(`${proxyUrl}/workflows/echo/execute`, {
      ...POST_JSON,
      body: '{"params":{}}',
    });

    expect(await refusal(answer)).toMatchObject({ statusCode: 504, reason: 'UPSTREAM_TIMEOUT' });
    await upstream.request(0).then((request) => request.aborted);
  });

  it('cuts an answer whose body is still coming at the deadline', async () => {
    const { upstream, proxyUrl } = await proxiedUpstream(
      (_request, outgoing) => {
        outgoing.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
        outgoing.write('{"status":"success",');
      },
      { requestTimeoutMs: 50 },
    );

    const answer = await fetch(`${proxyUrl}/workflows/echo/task-1/result`);

    expect(answer.status).toBe(200);
    await expect(answer.text()).rejects.toThrow();
    await upstream.request(0).then((request) => request.aborted);
  });

  it('answers 504 when a stream does not begin within streamIdleTimeoutMs', async () => {
    const { proxyUrl } = await proxiedUpstream(() => {}, { streamIdleTimeoutMs: 50 });

    const answer = await fetch(`${proxyUrl}/workflows/render-video/stream`, {
      ...POST_JSON,
      body: '{"params":{}}',
    });

    expect(await refusal(answer)).toMatchObject({ statusCode: 504, reason: 'UPSTREAM_TIMEOUT' });
  });

  it('answers 408 REQUEST_TIMEOUT to a body that does not arrive within requestTimeoutMs, and asks the service nothing', async () => {
    const { upstream, proxyUrl } = await proxiedUpstream(accept, { requestTimeoutMs: 100 });

    // A body announced whole and never finished, over a real socket, as a slow-loris client sends it.
    const answer = await new Promise<IncomingMessage>((resolve, reject) => {
      const outgoing = httpRequest(`${proxyUrl}/workflows/echo/submit`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': '1000' },
      });
      outgoing.on('response', resolve).on('error', reject);
      outgoing.write('{"params":{"message":"');
      onTestFinished(() => {
        outgoing.destroy();
      });
    });
    const body = errorBodySchema.parse(JSON.parse(await text(answer)));

    expect(answer.statusCode).toBe(408);
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    // The rest of the body would be read as the next request: the connection is closed.
    expect(answer.headers.connection).toBe('close');
    expect(body).toMatchObject({ statusCode: 408, reason: 'REQUEST_TIMEOUT' });
    expect(upstream.requests).toHaveLength(0);
  });

  it('gives a trickled body 30 s by default, however many bytes keep coming', async () => {
    const { upstream, proxy } = await inProcessProxy(accept);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    let cancelled = false;
    // One byte a second, never the end: no idle gap ever reaches the deadline, only the whole does.
    const trickle = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{'));
      },
      pull: (controller) =>
        new Promise<void>((resolve) => {
          setTimeout(() => {
            if (!cancelled) controller.enqueue(new TextEncoder().encode(' '));
            resolve();
          }, 1000);
        }),
      cancel() {
        cancelled = true;
      },
    });
    let answer: Response | undefined;
    void proxy
      .fetch(
        new Request('http://app.test/workflows/echo/submit', {
          ...POST_JSON,
          body: trickle,
          duplex: 'half',
        } as RequestInit),
      )
      .then((response) => {
        answer = response;
      });

    await vi.advanceTimersByTimeAsync(29_999);
    expect(answer).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);

    expect(answer?.status).toBe(408);
    expect(await refusal(answer!)).toMatchObject({ statusCode: 408, reason: 'REQUEST_TIMEOUT' });
    expect(cancelled).toBe(true);
    expect(upstream.requests).toHaveLength(0);
  });

  it('answers 413 for a body over maxBodyBytes by its Content-Length, and asks the service nothing', async () => {
    const { upstream, proxyUrl } = await proxiedUpstream(accept, { maxBodyBytes: 1024 });

    const answer = await fetch(`${proxyUrl}/workflows/echo/submit`, {
      ...POST_JSON,
      body: JSON.stringify({ params: { message: 'x'.repeat(2048) } }),
    });

    expect(await refusal(answer)).toMatchObject({ statusCode: 413, reason: 'PAYLOAD_TOO_LARGE' });
    expect(upstream.requests).toHaveLength(0);
  });

  it('answers 413 for an endless body without reading it to its end', async () => {
    const { upstream, proxy } = await inProcessProxy(accept, {
      maxBodyBytes: 1024,
    });
    let pulled = 0;
    let cancelled = false;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 100;
        controller.enqueue(new Uint8Array(100).fill(0x20));
      },
      cancel() {
        cancelled = true;
      },
    });

    const answer = await proxy.fetch(
      new Request('http://app.test/workflows/echo/submit', {
        ...POST_JSON,
        body: endless,
        duplex: 'half',
      } as RequestInit),
    );

    expect(await refusal(answer)).toMatchObject({ statusCode: 413, reason: 'PAYLOAD_TOO_LARGE' });
    expect(cancelled).toBe(true);
    expect(pulled).toBeLessThanOrEqual(1024 + 2 * 100);
    expect(upstream.requests).toHaveLength(0);
  });

  it('answers 502 UPSTREAM_UNAVAILABLE when the service cannot be reached', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const proxyUrl = await serveProxy({ target: `http://127.0.0.1:${port}` });

    const answer = await fetch(`${proxyUrl}/workflows/echo/task-1/result`);

    expect(await refusal(answer)).toMatchObject({
      statusCode: 502,
      reason: 'UPSTREAM_UNAVAILABLE',
    });
  });

  it('answers 500 INTERNAL when clientToken or authorize fails, telling onError and never the browser', async () => {
    const failures: unknown[] = [];
    const { upstream, proxyUrl } = await proxiedUpstream(accept, {
      clientToken: () => {
        throw new Error('vault unreachable: token abc123');
      },
      onError: (error) => failures.push(error),
    });
    const badAuthorize = await serveProxy({
      target: upstream.url,
      authorize: () => ({ userToken: 'two words' }),
      onError: (error) => failures.push(error),
    });

    const answers = [
      await fetch(`${proxyUrl}/workflows/echo/task-1/result`),
      await fetch(`${badAuthorize}/workflows/echo/task-1/result`),
    ];

    for (const answer of answers) {
      const body = await refusal(answer);
      expect(body).toMatchObject({ statusCode: 500, reason: 'INTERNAL' });
      expect(body.message).not.toMatch(/abc123|two words/);
    }
    expect(failures).toHaveLength(2);
    expect(String(failures[1])).not.toContain('two words');
    expect(upstream.requests).toHaveLength(0);
  });

  it('waits as long as a timer can for a longer deadline, rather than not at all', async () => {
    const proxy = createTaskProxy({
      target: 'https://tasks.example',
      clientToken: 'app',
      tasks: ['echo'],
      requestTimeoutMs: 2 ** 31,
      // A service that never answers: the request ends only when the proxy aborts it.
      fetch: (_url, init) =>
        new Promise<Response>((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => reject(new Error('Aborted.')));
        }),
    });
    let settled = false;
    void Promise.resolve(
      proxy.fetch(
        new Request('http://app.test/workflows/echo/0f8e3c1a-5b7d-4e2f-9a6c-1d3b5f7e9a2c/result', {
          headers: { authorization: 'Bearer user-1' },
        }),
      ),
    ).finally(() => (settled = true));
    // A timer asked to wait past 2^31 - 1 ms fires after 1 ms instead, so before one that expires
    // later: once this one fired, a deadline taken at face value would have passed.
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(settled).toBe(false);
  });
});

describe('createTaskProxy: options', () => {
  it('refuses options that cannot be secure or cannot work', () => {
    const target = 'https://tasks.example';
    const valid = { target, clientToken: 'app', tasks: ['echo'] };

    expect(() => createTaskProxy({ ...valid, tasks: undefined as never })).toThrow(TypeError);
    expect(() => createTaskProxy({ ...valid, clientToken: undefined as never })).toThrow(TypeError);
    expect(() => createTaskProxy({ ...valid, target: 'ftp://tasks.example' })).toThrow(TypeError);
    expect(() => createTaskProxy({ ...valid, target: '/relative' })).toThrow(TypeError);
    expect(() => createTaskProxy({ ...valid, target: `${target}?key=1` })).toThrow(TypeError);
    expect(() => createTaskProxy({ ...valid, basePath: 'api' })).toThrow(TypeError);
    expect(() => createTaskProxy({ ...valid, platform: 'not valid' })).toThrow(TypeError);
    expect(() => createTaskProxy({ ...valid, clientToken: 'tökén' })).toThrow(TypeError);
    expect(() => createTaskProxy({ ...valid, maxBodyBytes: 0 })).toThrow(TypeError);
    expect(() => createTaskProxy({ ...valid, requestTimeoutMs: Number.NaN })).toThrow(TypeError);
    expect(() => createTaskProxy({ ...valid, basePath: '/api/taskwire/' })).not.toThrow();
  });
});
