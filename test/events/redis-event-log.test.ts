import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient } from 'redis';
import { EventLogError, type EventLog } from '../../src/events/event-log.js';
import { redisEventLog, type RedisEventLogClient } from '../../src/events/redis-event-log.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';
import { entriesOf, eventLogSuite } from './event-log-suite.js';

let redis: RedisServer;
let prefixCount = 0;

beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.stop();
});

/**
 * Returns once `status` says the log is no longer readable. Redis expires keys on its own clock and
 * says so on its `expired` key-event channel: each expiry wakes this to ask again, and none is
 * missed, since the subscription is made before the first question.
 */
async function untilGone(status: () => Promise<string>): Promise<void> {
  const subscriber = createClient({ url: redis.url });
  subscriber.on('error', () => undefined);
  await subscriber.connect();
  let expiries = 0;
  let wake = (): void => {};
  try {
    await subscriber.sendCommand(['CONFIG', 'SET', 'notify-keyspace-events', 'Ex']);
    await subscriber.subscribe('__keyevent@0__:expired', () => {
      expiries += 1;
      wake();
    });
    for (;;) {
      const seen = expiries;
      if ((await status()) !== 'ok') return;
      if (expiries === seen) await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    subscriber.destroy();
  }
}

// Each case gets a prefix of its own, so the store's cap counts its own logs only.
eventLogSuite('redisEventLog', {
  create: async (limits) =>
    redisEventLog({ url: redis.url, keyPrefix: `test${++prefixCount}:` }, limits),
  passRetention: (_retentionMs, status) => untilGone(status),
  // A lease is a key Redis expires on its clock, which this machine shares: once that long passed
  // since it was taken, it is gone, however busy the machine was.
  passLease: (leaseMs) => new Promise((resolve) => setTimeout(resolve, leaseMs + 1)),
});

describe('redisEventLog', () => {
  it('serves a log written through one client to a reader on another', async () => {
    const writer = redisEventLog({ url: redis.url, keyPrefix: 'shared:' });
    const reader = redisEventLog({ url: redis.url, keyPrefix: 'shared:' });
    try {
      const key = { taskName: 'echo', taskId: 'one' };
      await writer.create(key, 'user');
      const read = await reader.read(key, 'user', undefined, new AbortController().signal);
      if (read.status !== 'ok') throw new Error(read.status);
      const iterator = entriesOf(read);
      const first = iterator.next();
      await writer.append(key, ['{"type":"task.progress"}'], false);
      await writer.append(key, ['{"type":"task.completed"}'], true);
      expect((await first).value).toMatchObject({ message: '{"type":"task.progress"}' });
      expect((await iterator.next()).value).toMatchObject({ final: true });
      expect((await iterator.next()).done).toBe(true);
    } finally {
      await Promise.all([writer.close(), reader.close()]);
    }
  });

  it('takes a connected client of the app, and leaves it open on close()', async () => {
    const client = createClient({ url: redis.url });
    client.on('error', () => undefined);
    await client.connect();
    const log: EventLog = redisEventLog({ client: client as RedisEventLogClient });
    const key = { taskName: 'echo', taskId: 'app-client' };
    await log.create(key, 'user');
    await log.append(key, ['{}'], true);
    await log.close();
    expect(await client.sendCommand(['PING'])).toBe('PONG');
    client.destroy();
  });

  it('sends a batch of appends to Redis as one command, kept as one entry', async () => {
    const client = createClient({ url: redis.url });
    client.on('error', () => undefined);
    await client.connect();
    const sent: string[] = [];
    // The app's client, counting the commands the log sends through it.
    const counting: RedisEventLogClient = {
      sendCommand: (args, options) => {
        sent.push(args[0] ?? '');
        return client.sendCommand(args, options);
      },
      duplicate: (overrides) => client.duplicate(overrides) as RedisEventLogClient,
      connect: () => client.connect(),
      destroy: () => client.destroy(),
      on: (event, listener) => client.on(event, listener),
    };
    const log = redisEventLog({ client: counting, keyPrefix: 'together:' });
    try {
      const key = { taskName: 'echo', taskId: 'together' };
      await log.create(key, 'user');
      sent.length = 0;
      const positions = await log.append(
        key,
        Array.from({ length: 100 }, (_, index) => JSON.stringify({ index })),
        true,
      );
      expect(sent).toEqual(['EVAL']);
      // Kept as one entry of the task's stream: a pack of messages, not one entry each.
      expect(await client.sendCommand(['XLEN', 'together:echo:together:log'])).toBe(1);
      expect(positions).toEqual(
        Array.from({ length: 100 }, (_, index) => String(index + 1).padStart(16, '0')),
      );
    } finally {
      await log.close();
      client.destroy();
    }
  });

  it.each([2, 3] as const)(
    'follows a live log with one XREAD per message it waits for, no catch-up or state between (RESP%i)',
    async (RESP) => {
      const client = createClient({ url: redis.url, RESP });
      client.on('error', () => undefined);
      await client.connect();
      const sent: string[] = [];
      let blocked = (): void => {};
      // The reader's client, counting the commands it sends, its blocking connection's included.
      const counting = (inner: RedisEventLogClient): RedisEventLogClient => ({
        sendCommand: (args, options) => {
          sent.push(args[0] ?? '');
          if (args[0] === 'XREAD') blocked();
          return inner.sendCommand(args, options);
        },
        duplicate: (overrides) => counting(inner.duplicate(overrides)),
        connect: () => inner.connect(),
        destroy: () => inner.destroy(),
        on: (event, listener) => inner.on(event, listener),
      });
      const writer = redisEventLog({ url: redis.url, keyPrefix: `live${RESP}:` });
      const reader = redisEventLog({
        client: counting(client as RedisEventLogClient),
        keyPrefix: `live${RESP}:`,
      });
      try {
        const key = { taskName: 'echo', taskId: 'live' };
        await writer.create(key, 'user');
        const read = await reader.read(key, 'user', undefined, new AbortController().signal);
        if (read.status !== 'ok') throw new Error(read.status);
        const iterator = entriesOf(read);
        for (let index = 1; index <= 20; index++) {
          const waiting = new Promise<void>((resolve) => (blocked = resolve));
          const next = iterator.next();
          // Appended while the reader waits in XREAD, as a live task's next message comes.
          await waiting;
          await writer.append(key, [JSON.stringify({ index })], index === 20);
          expect((await next).value).toMatchObject({ message: JSON.stringify({ index }) });
        }
        expect((await iterator.next()).done).toBe(true);
        // The read's state, its first catch-up and its first state check; then XREADs only.
        expect(sent.filter((command) => command !== 'XREAD').length).toBeLessThanOrEqual(4);
      } finally {
        await Promise.all([writer.close(), reader.close()]);
        client.destroy();
      }
    },
  );

  it("asks for a read's state and its first entries together: its first event waits for one round trip", async () => {
    const client = createClient({ url: redis.url });
    client.on('error', () => undefined);
    await client.connect();
    const timeline: string[] = [];
    // The reader's client, writing down when each command went and when its answer came.
    const timed: RedisEventLogClient = {
      sendCommand: async (args, options) => {
        timeline.push(`${args[0]} sent`);
        try {
          return await client.sendCommand(args, options);
        } finally {
          timeline.push(`${args[0]} answered`);
        }
      },
      duplicate: (overrides) => client.duplicate(overrides) as RedisEventLogClient,
      connect: () => client.connect(),
      destroy: () => client.destroy(),
      on: (event, listener) => client.on(event, listener),
    };
    const writer = redisEventLog({ url: redis.url, keyPrefix: 'first:' });
    const reader = redisEventLog({ client: timed, keyPrefix: 'first:' });
    try {
      const key = { taskName: 'echo', taskId: 'first' };
      await writer.create(key, 'user');
      await writer.append(key, ['{"n":1}'], false);
      await writer.append(key, ['{"n":2}'], true);
      const read = await reader.read(key, 'user', undefined, new AbortController().signal);
      if (read.status !== 'ok') throw new Error(read.status);
      const first = await entriesOf(read).next();
      expect(first.value).toMatchObject({ message: '{"n":1}' });
      expect(timeline).toEqual(['EVAL sent', 'XRANGE sent', 'EVAL answered', 'XRANGE answered']);
    } finally {
      await Promise.all([writer.close(), reader.close()]);
      client.destroy();
    }
  });

  it('refuses the appends sent after one that failed, rather than leave a gap in the log', async () => {
    const client = createClient({ url: redis.url });
    client.on('error', () => undefined);
    await client.connect();
    let failNext = false;
    // The app's client, failing one command as a Redis that refused it would (out of memory).
    const failing: RedisEventLogClient = {
      sendCommand: (args, options) => {
        if (failNext && args[0] === 'EVAL') {
          failNext = false;
          return Promise.reject(new Error('OOM command not allowed'));
        }
        return client.sendCommand(args, options);
      },
      duplicate: (overrides) => client.duplicate(overrides) as RedisEventLogClient,
      connect: () => client.connect(),
      destroy: () => client.destroy(),
      on: (event, listener) => client.on(event, listener),
    };
    const log = redisEventLog({ client: failing, keyPrefix: 'gap:' });
    try {
      const key = { taskName: 'echo', taskId: 'gap' };
      await log.create(key, 'user');
      await log.append(key, ['{"n":1}'], false);
      failNext = true;
      const lost = log.append(key, ['{"n":2}'], false);
      await expect(lost).rejects.toThrow('OOM');
      // Redis takes commands again, but the message before this one is missing.
      await expect(log.append(key, ['{"n":3}'], false)).rejects.toThrow(
        'An earlier append to this log failed.',
      );
      // The relay gives up on such a log; a read gets what it holds, then learns it broke.
      await log.abandon(key);
      const read = await log.read(key, 'user', undefined, new AbortController().signal);
      if (read.status !== 'ok') throw new Error(read.status);
      const messages: string[] = [];
      const end = await (async () => {
        for await (const entry of entriesOf(read)) messages.push(entry.message);
      })().catch((error: unknown) => error);
      expect(messages).toEqual(['{"n":1}']);
      expect((end as EventLogError).kind).toBe('expired');
    } finally {
      await log.close();
      client.destroy();
    }
  });

  it('ends a live read with an unavailable error when Redis goes away, and comes back with it', async () => {
    const own = await startRedisServer();
    const log = redisEventLog({ url: own.url });
    try {
      const key = { taskName: 'echo', taskId: 'restart' };
      await log.create(key, 'user');
      await log.append(key, ['{}'], false);
      const read = await log.read(key, 'user', undefined, new AbortController().signal);
      if (read.status !== 'ok') throw new Error(read.status);
      const iterator = entriesOf(read);
      await iterator.next();
      const waiting = iterator.next().then(
        () => 'went on',
        (error: unknown) => error,
      );
      await own.stop();
      const error = await waiting;
      expect(error).toBeInstanceOf(EventLogError);
      expect((error as EventLogError).kind).toBe('unavailable');
      // While Redis is away every call fails at once, with no queue that waits for it.
      await expect(log.read(key, 'user', undefined, new AbortController().signal)).rejects.toThrow(
        EventLogError,
      );
      await own.start();
      // Back, but empty (no persistence): the log is gone, and a new one can be written.
      // Its client reconnects on its own schedule (a backoff of up to 2 s): a create is tried
      // until one is taken.
      await vi.waitFor(async () => expect(await log.create(key, 'user')).toBe(true), {
        timeout: 10_000,
      });
    } finally {
      await log.close();
      await own.stop();
    }
  }, 15_000);
});
