/**
 * The proxy with an event log (docs/protocol.md, "Resumable streams (0.4)"), on loopback sockets in
 * front of a reference service that offers no resumable streams itself (`events: false`, a 0.3
 * service), with the real client in front of the proxy: the proxy relays each stream into its log
 * to the end whether or not the page reads, serves the reads from the log to the task's user only,
 * answers the short start, and with Redis two proxies serve each other's streams.
 */
import { createParser } from 'eventsource-parser';
import { createClient } from 'redis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { createTaskClient, type StreamEvent } from '../../src/client/index.js';
import { resumableReadsOf } from '../../src/client/resumable-reads.js';
import {
  createReferenceService,
  defineTask,
  DEMO_CLIENT_TOKEN,
  DEMO_USER_TOKEN,
  OTHER_USER_TOKEN,
  type ReferenceServiceConfig,
  type TaskContext,
} from '../../src/reference/index.js';
import type { JsonObject } from '../../src/protocol/records.js';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/node/index.js';
import { createTaskProxy, type TaskProxyOptions } from '../../src/server/index.js';
import { redisEventLog } from '../../src/server/redis/index.js';
import type { EventLog } from '../../src/events/event-log.js';
import { memoryEventLog } from '../../src/events/memory-event-log.js';
import { failure } from '../support/failure.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';
import { startRecordingUpstream } from './recording-upstream.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A gate a task waits on, opened by the test. */
function gate(): { opened: Promise<void>; open(): void } {
  let open = (): void => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/**
 * The task `held`: it runs `before`, then waits until the test calls `release`, then runs `after`
 * and ends with what that returns (`null` without one).
 */
function heldTask(
  before: (context: TaskContext) => void,
  after: (context: TaskContext) => JsonObject | null = () => null,
) {
  const released = gate();
  const task = defineTask({
    name: 'held',
    params: z.object({}),
    run: async (context) => {
      before(context);
      await released.opened;
      return after(context);
    },
  });
  return { task, release: released.open };
}

/** The page's POST that starts a stream of `taskName` with no params, as the user, at `baseUrl`. */
function streamRequest(baseUrl: string, taskName: string): Request {
  return new Request(`${baseUrl}/workflows/${taskName}/stream`, {
    method: 'POST',
    headers: { authorization: `Bearer ${DEMO_USER_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ params: {} }),
  });
}

/** Counts the POSTs the service answered: a resumed read must never make another. */
interface Upstream {
  url: string;
  posts: string[];
}

/** The reference service, as a 0.3 service (no resumable streams of its own), on loopback. */
async function startUpstream(config: ReferenceServiceConfig = {}): Promise<Upstream> {
  const service = createReferenceService({ timeScale: 0.001, events: false, ...config });
  const posts: string[] = [];
  const server = await startReferenceServer({
    service: {
      fetch: (request) => {
        if (request.method === 'POST') posts.push(new URL(request.url).pathname);
        return service.fetch(request);
      },
    },
  });
  closers.push(async () => {
    await server.close();
    await service.close();
  });
  return { url: server.url, posts };
}

/** A proxy in front of `upstream` on a loopback socket of its own. */
async function startProxy(
  upstream: Upstream,
  options: Partial<TaskProxyOptions> = {},
): Promise<ReferenceServer> {
  const proxy = createTaskProxy({
    target: upstream.url,
    clientToken: DEMO_CLIENT_TOKEN,
    tasks: ['render-video', 'echo', 'held'],
    ...options,
  });
  const server = await startReferenceServer({ service: proxy });
  closers.push(() => server.close());
  return server;
}

/** A client of the user with `userToken`, through `server`, holding no app token. */
function clientOf(server: ReferenceServer, userToken = DEMO_USER_TOKEN) {
  return createTaskClient({ baseUrl: server.url, userToken });
}

async function collect<Item>(items: AsyncIterable<Item>): Promise<Item[]> {
  const all: Item[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** Streams a task to its end: its id, events and positions. */
async function streamToEnd(client: ReturnType<typeof clientOf>, params: Record<string, unknown>) {
  const stream = client.stream('render-video', params);
  const events: StreamEvent[] = [];
  const positions: Array<string | undefined> = [];
  for await (const event of stream) {
    events.push(event as StreamEvent);
    positions.push(stream.position);
  }
  return { taskId: stream.taskId!, events, positions, resumable: stream.resumable };
}

/**
 * `log` as the proxy's log, with the reads it served (the position each read after) and a promise
 * of its final message appended.
 */
function watchedLog(log: EventLog = memoryEventLog()) {
  const reads: Array<string | undefined> = [];
  let finalAppended = (): void => {};
  const ended = new Promise<void>((resolve) => {
    finalAppended = resolve;
  });
  const watched: EventLog = {
    create: (key, owner) => log.create(key, owner),
    append: async (key, message, final) => {
      const position = await log.append(key, message, final);
      if (final) finalAppended();
      return position;
    },
    keepAlive: (key, forMs) => log.keepAlive(key, forMs),
    abandon: (key) => log.abandon(key),
    read: (key, owner, after, signal) => {
      reads.push(after);
      return log.read(key, owner, after, signal);
    },
    close: () => log.close(),
  };
  return { log: watched, reads, ended };
}

/** The SSE messages of `text`: each one's `id:` and data. */
function messagesOf(text: string): Array<{ id: string | undefined; data: string }> {
  const messages: Array<{ id: string | undefined; data: string }> = [];
  const parser = createParser({ onEvent: ({ id, data }) => messages.push({ id, data }) });
  parser.feed(text);
  return messages;
}

describe('createTaskProxy with an event log', () => {
  it("makes a 0.3 service's streams resumable: positions, payloads and ids read again from the log", async () => {
    const upstream = await startUpstream();
    const proxy = await startProxy(upstream);
    const client = clientOf(proxy);
    const streamed = await streamToEnd(client, { frames: 5, frameMs: 10 });
    expect(streamed.resumable).toBe(true);
    expect(streamed.positions.every((position) => /^\d{16}$/.test(position ?? ''))).toBe(true);
    const read = await collect(client.events('render-video', streamed.taskId));
    expect(read.map((message) => message.event)).toEqual(streamed.events);
    const record = await client.getResult('render-video', streamed.taskId);
    const custom = streamed.events.filter((event) => event.type.startsWith('event.'));
    expect(custom.map((event) => (event as { eventId?: string }).eventId)).toEqual(
      record.events.map((event) => event.id),
    );
    expect(custom[0]).toMatchObject({ type: 'event.frame-rendered', frame: 1 });
    expect(upstream.posts).toHaveLength(1);
  });

  it('answers the page that started a stream from the relay, with the positions of the log and no read of it', async () => {
    const upstream = await startUpstream();
    const watched = watchedLog();
    const proxy = await startProxy(upstream, { events: watched.log });
    const client = clientOf(proxy);
    const streamed = await streamToEnd(client, { frames: 5, frameMs: 10 });
    expect(streamed.resumable).toBe(true);
    expect(watched.reads).toEqual([]);
    // The positions the page got are the log's: a read from the first gives the same sequence.
    const read = await collect(client.events('render-video', streamed.taskId));
    expect(read.map((message) => message.position)).toEqual(streamed.positions);
    expect(read.map((message) => message.event)).toEqual(streamed.events);
  });

  it('lets a page that fell behind the relay read the rest from the log, every message once and in order', async () => {
    const large = defineTask({
      name: 'held',
      params: z.object({}),
      run: async (context) => {
        // About 1.5 MB of events: more than the relay keeps for a page that does not read.
        for (let index = 1; index <= 300; index++) {
          context.emit('chunk', { index, text: 'x'.repeat(5000) });
        }
        return { done: true };
      },
    });
    const upstream = await startUpstream({ tasks: [large] });
    const watched = watchedLog(memoryEventLog({ maxLogBytes: 8 * 1024 * 1024 }));
    // Asked in-process, so that nothing but the page reads its answer (a socket's buffers would).
    const proxy = createTaskProxy({
      target: upstream.url,
      clientToken: DEMO_CLIENT_TOKEN,
      tasks: ['held'],
      events: watched.log,
    });
    const answer = await proxy.fetch(streamRequest('http://app.test', 'held'));
    const reader = answer.body!.pipeThrough(new TextDecoderStream()).getReader();
    // The page reads a first chunk, then nothing while the relay runs on to the final message.
    let text = (await reader.read()).value ?? '';
    await watched.ended;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += value;
    }
    const messages = messagesOf(text);
    expect(messages.map((message) => Number(message.id))).toEqual(
      Array.from({ length: 301 }, (_, index) => index + 1),
    );
    const events = messages.map((message) => JSON.parse(message.data) as { index?: number });
    expect(events.slice(0, 300).map((event) => event.index)).toEqual(
      Array.from({ length: 300 }, (_, index) => index + 1),
    );
    expect(events.at(-1)).toMatchObject({ type: 'task.completed' });
    // It read the log once, after the last position the relay had handed it.
    expect(watched.reads).toEqual([expect.stringMatching(/^\d{16}$/)]);
    expect(Number(watched.reads[0])).toBeGreaterThan(0);
  });

  it('tells the final message and the custom events however the service writes their type', async () => {
    const upstream = await startRecordingUpstream((_request, outgoing) => {
      outgoing.writeHead(200, { 'content-type': 'text/event-stream', 'x-task-id': 'task-1' });
      outgoing.write('data: {"type":"task.progress","percent":50,"estimatedSecondsLeft":1}\n\n');
      outgoing.write(
        'id: 0b7c1c52-4c8e-4d0e-9d43-1d2a8c3f5e6a\ndata: {"type":"event.fr\\u0061me","n":1}\n\n',
      );
      outgoing.write('data: {"type" : "task.compl\\u0065ted","result":{"ok":true}}\n\n');
      // The service holds its connection open: only the final message ends the relay.
    });
    const proxy = await startProxy({ url: upstream.url, posts: [] });
    const answer = await fetch(streamRequest(proxy.url, 'render-video'));
    const messages = messagesOf(await answer.text());
    expect(messages.map((message) => JSON.parse(message.data) as unknown)).toEqual([
      { type: 'task.progress', percent: 50, estimatedSecondsLeft: 1 },
      { type: 'event.frame', n: 1, eventId: '0b7c1c52-4c8e-4d0e-9d43-1d2a8c3f5e6a' },
      { type: 'task.completed', result: { ok: true } },
    ]);
    // The log has ended with it: a read after it has nothing more to wait for.
    const after = await fetch(`${proxy.url}/workflows/render-video/task-1/events`, {
      headers: { authorization: `Bearer ${DEMO_USER_TOKEN}`, 'last-event-id': messages[2]!.id! },
    });
    expect(after.status).toBe(204);
  });

  it('answers another user, a task off the allow-list and a request without a user as it should', async () => {
    const upstream = await startUpstream();
    const proxy = await startProxy(upstream);
    const { taskId } = await streamToEnd(clientOf(proxy), { frames: 2, frameMs: 10 });
    const other = await failure(
      collect(clientOf(proxy, OTHER_USER_TOKEN).events('render-video', taskId)),
    );
    expect([other.status, other.reason]).toEqual([404, 'RESULT_NOT_FOUND']);
    const offList = await fetch(`${proxy.url}/workflows/failing-task/${taskId}/events`, {
      headers: { authorization: `Bearer ${DEMO_USER_TOKEN}` },
    });
    expect(offList.status).toBe(404);
    expect(await offList.json()).toMatchObject({ reason: 'TASK_NOT_FOUND' });
    const nobody = await fetch(`${proxy.url}/workflows/render-video/${taskId}/events`);
    expect(nobody.status).toBe(401);
    expect(nobody.headers.get('x-taskwire-resumable')).toBe('1');
    expect(nobody.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it("digests a user's token only for what it logs: a quote and a poll wait for no digest", async () => {
    const upstream = await startUpstream();
    const proxy = await startProxy(upstream);
    const client = clientOf(proxy);
    const digest = vi.spyOn(crypto.subtle, 'digest');
    try {
      const { taskId } = await streamToEnd(client, { frames: 2, frameMs: 10 });
      expect(digest).toHaveBeenCalled();
      digest.mockClear();
      await client.options('render-video', { frames: 2 });
      await client.getResult('render-video', taskId);
      expect(digest).not.toHaveBeenCalled();
    } finally {
      digest.mockRestore();
    }
  });

  it('reads the service to the end into the log when the page goes away, and a page that comes back gets all of it once', async () => {
    const { task: held, release } = heldTask(
      (context) => context.emit('before', { n: 1 }),
      (context) => {
        context.emit('after', { n: 2 });
        return { done: true };
      },
    );
    const upstream = await startUpstream({ tasks: [held] });
    const proxy = await startProxy(upstream);
    const client = clientOf(proxy);
    const controller = new AbortController();
    const stream = client.stream('held', {}, { signal: controller.signal });
    const first = await stream[Symbol.asyncIterator]().next();
    expect(first.value).toMatchObject({ type: 'event.before', n: 1 });
    // The page goes away (a reload), then the task goes on while no page listens.
    controller.abort();
    release();
    const read = await collect(client.events('held', stream.taskId!));
    expect(read.map((message) => message.event.type)).toEqual([
      'event.before',
      'event.after',
      'task.completed',
    ]);
    expect(read[1]?.event).toMatchObject({ n: 2 });
    expect(upstream.posts).toHaveLength(1);
  });

  it('answers a short start 202 once the service gave the id, one task per Idempotency-Key', async () => {
    const upstream = await startUpstream();
    const proxy = await startProxy(upstream);
    const client = clientOf(proxy);
    const reads = resumableReadsOf(client)!;
    await client.options('echo', { message: 'x' });
    expect(reads.offered).toBe(true);
    const params = { frames: 3, frameMs: 10 };
    const [started, again] = await Promise.all([
      reads.startDetached('render-video', params, { idempotencyKey: 'one' }),
      reads.startDetached('render-video', params, { idempotencyKey: 'one' }),
    ]);
    expect(started.detached).toBe(true);
    expect(again.id).toBe(started.id);
    expect(upstream.posts.filter((path) => path.endsWith('/stream'))).toHaveLength(1);
    const reused = await failure(
      reads.startDetached('render-video', { frames: 4 }, { idempotencyKey: 'one' }),
    );
    expect([reused.status, reused.reason]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    const read = await collect(client.events('render-video', started.id));
    expect(read.at(-1)?.event.type).toBe('task.completed');
    expect(read.filter((message) => message.event.type === 'task.progress')).toHaveLength(3);
  });

  it('gives up on a service silent past streamIdleTimeoutMs: the reads end and answer 410', async () => {
    const { task: silent, release } = heldTask((context) => context.progress(5, 1));
    // A service whose keep-alive comes once in 1,000 s: silent, as far as the proxy can tell.
    const upstream = await startUpstream({ tasks: [silent], timeScale: 1 });
    const proxy = await startProxy(upstream, { streamIdleTimeoutMs: 300 });
    const client = clientOf(proxy);
    const stream = client.stream('held', {});
    const error = await failure(collect(stream));
    expect(error.code).toBe('network');
    const expired = await failure(
      collect(client.events('held', stream.taskId!, { after: stream.position })),
    );
    expect([expired.status, expired.reason]).toEqual([410, 'EVENTS_EXPIRED']);
    release();
  });

  it('follows the tasks of a page over one multiplexed read, an unreadable task told once', async () => {
    const upstream = await startUpstream();
    const proxy = await startProxy(upstream);
    const client = clientOf(proxy);
    const first = await streamToEnd(client, { frames: 2, frameMs: 10 });
    const second = await streamToEnd(client, { frames: 3, frameMs: 10 });
    const messages = await collect(
      resumableReadsOf(client)!.follow([
        { task: 'render-video', id: first.taskId, after: null },
        { task: 'render-video', id: second.taskId, after: second.positions[1]! },
        { task: 'failing-task', id: first.taskId, after: null },
      ]),
    );
    const eventsOf = (id: string) =>
      messages.filter((message) => message.id === id && 'event' in message);
    expect(eventsOf(first.taskId)).toHaveLength(first.events.length);
    expect(eventsOf(second.taskId)).toHaveLength(second.events.length - 2);
    const refused = messages.filter((message) => 'error' in message);
    expect(refused.map((message) => ('error' in message ? message.error.reason : ''))).toEqual([
      'RESULT_NOT_FOUND',
    ]);
  });

  it('keeps a read of a silent task alive within a third of streamIdleTimeoutMs', async () => {
    const { task: quiet, release } = heldTask(() => {});
    const upstream = await startUpstream({ tasks: [quiet], timeScale: 0.001 });
    const proxy = await startProxy(upstream, { streamIdleTimeoutMs: 600 });
    const answer = await fetch(streamRequest(proxy.url, 'held'));
    expect(answer.headers.get('x-taskwire-resumable')).toBe('1');
    const reader = answer.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!text.includes(': keep-alive')) text += (await reader.read()).value ?? '';
    release();
    while (!(await reader.read()).done) {
      // Read to the end: the final message closes it.
    }
  });

  it('passes a resumable service on as a 0.3 stream when it has no log of its own', async () => {
    const service = createReferenceService({ timeScale: 0.001 });
    const server = await startReferenceServer({ service });
    closers.push(async () => {
      await server.close();
      await service.close();
    });
    const proxy = await startProxy({ url: server.url, posts: [] }, { events: false });
    const client = clientOf(proxy);
    const streamed = await streamToEnd(client, { frames: 3, frameMs: 10 });
    expect(streamed.resumable).toBe(false);
    const record = await client.getResult('render-video', streamed.taskId);
    expect(
      streamed.events
        .filter((event) => event.type.startsWith('event.'))
        .map((event) => (event as { eventId?: string }).eventId),
    ).toEqual(record.events.map((event) => event.id));
    const none = await failure(collect(client.events('render-video', streamed.taskId)));
    expect([none.status, none.reason]).toEqual([404, 'NOT_FOUND']);
  });
});

describe('two proxies on one redis-server', () => {
  let redis: RedisServer | undefined;
  afterEach(async () => {
    await redis?.stop();
    redis = undefined;
  });

  /** A proxy on its own Redis log (its own client, as a second app server would have). */
  async function proxyOnRedis(upstream: Upstream, url: string) {
    const log: EventLog = redisEventLog({ url });
    closers.push(() => log.close());
    return startProxy(upstream, { events: log });
  }

  it('serves a read through the other proxy, every message once', async () => {
    redis = await startRedisServer();
    const { task: held, release } = heldTask(
      (context) => {
        for (let index = 1; index <= 20; index++) context.emit('tick', { index });
      },
      (context) => {
        for (let index = 21; index <= 40; index++) context.emit('tick', { index });
        return { done: true };
      },
    );
    const upstream = await startUpstream({ tasks: [held] });
    const first = await proxyOnRedis(upstream, redis.url);
    const second = await proxyOnRedis(upstream, redis.url);
    const stream = clientOf(first).stream('held', {});
    const iterator = stream[Symbol.asyncIterator]();
    await iterator.next();
    // The load balancer sends the page's next read to the other app server, mid-run.
    const reading = collect(clientOf(second).events('held', stream.taskId!));
    release();
    const read = await reading;
    const ticks = read
      .map((message) => message.event as { type: string; index?: number })
      .filter((event) => event.type === 'event.tick')
      .map((event) => event.index);
    expect(ticks).toEqual(Array.from({ length: 40 }, (_, index) => index + 1));
    expect(read.at(-1)?.event.type).toBe('task.completed');
    const positions = read.map((message) => message.position);
    expect(new Set(positions).size).toBe(positions.length);
    await iterator.return?.();
    expect(upstream.posts).toHaveLength(1);
  });

  it('ends a read through the other proxy once the proxy relaying the stream went away without a word, never a hang', async () => {
    redis = await startRedisServer();
    const { task: held, release } = heldTask(
      (context) => context.emit('before', {}),
      () => ({ done: true }),
    );
    const upstream = await startUpstream({ tasks: [held] });
    // The first app server's own connection to Redis, cut below as a crash or a deploy cuts it: its
    // relay can then neither append, nor abandon its log, nor keep it alive.
    const connection = createClient({ url: redis.url });
    connection.on('error', () => undefined);
    await connection.connect();
    const first = await startProxy(upstream, {
      events: redisEventLog({ client: connection }),
      streamIdleTimeoutMs: 1000,
    });
    const second = await proxyOnRedis(upstream, redis.url);
    const stream = clientOf(first).stream('held', {});
    const iterator = stream[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toMatchObject({ type: 'event.before' });
    connection.destroy();
    // The page's next read goes to the other app server: it gets what the log holds, then, once the
    // lease of the relay ran out, the end that sends it to Get Result.
    const read: unknown[] = [];
    const outcome = await (async () => {
      for await (const message of clientOf(second).events('held', stream.taskId!)) {
        read.push(message.event.type);
      }
    })().then(
      () => 'ended',
      (error: unknown) => error,
    );
    expect(read).toEqual(['event.before']);
    expect(outcome).toMatchObject({ reason: 'EVENTS_EXPIRED' });
    await iterator.return?.();
    release();
    const record = await clientOf(second).getResult('held', stream.taskId!);
    expect(record.id).toBe(stream.taskId);
    // A relay's lease is 5 s at the shortest, and a read looks at it once a second.
  }, 20_000);

  it("ends the page's stream with a defined outcome when Redis goes away mid-run, never a hang", async () => {
    redis = await startRedisServer();
    const { task: held, release } = heldTask(
      (context) => context.emit('before', {}),
      (context) => {
        context.emit('after', {});
        return null;
      },
    );
    const upstream = await startUpstream({ tasks: [held] });
    const proxy = await proxyOnRedis(upstream, redis.url);
    const client = clientOf(proxy);
    const stream = client.stream('held', {});
    const iterator = stream[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toMatchObject({ type: 'event.before' });
    const rest = iterator.next().then(
      () => 'went on',
      (error: unknown) => error,
    );
    await redis.stop();
    // A read while Redis is away is answered at once: 503 EVENTS_UNAVAILABLE.
    const unavailable = await fetch(`${proxy.url}/workflows/held/${stream.taskId}/events`, {
      headers: { authorization: `Bearer ${DEMO_USER_TOKEN}` },
    });
    expect(unavailable.status).toBe(503);
    expect(await unavailable.json()).toMatchObject({ reason: 'EVENTS_UNAVAILABLE' });
    // The page reads the relay itself, not Redis: the task's next message, which the log cannot
    // take, breaks its stream (the client then reads the outcome with Get Result).
    release();
    const broken = await rest;
    expect((broken as { code?: string }).code).toBe('network');
    // The task itself is fine: Get Result still reads it through the proxy.
    const record = await client.getResult('held', stream.taskId!);
    expect(record.id).toBe(stream.taskId);
  });
});
