// @vitest-environment jsdom
/**
 * The page's one read of its tasks' logs (src/state/event-feed.ts), on the real client and the
 * reference service in-process: each follower gets its task's messages after its own position,
 * once; a read that broke is opened again at once when the page comes back (online, restored from
 * the back/forward cache, visible after a while hidden), not after its retry delay.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTaskClient } from '../../src/client/index.js';
import { resumableReadsOf } from '../../src/client/resumable-reads.js';
import { isFinalEvent } from '../../src/protocol/stream-events.js';
import {
  createReferenceService,
  DEMO_CLIENT_TOKEN,
  DEMO_USER_TOKEN,
  demoTasks,
  type ReferenceService,
} from '../../src/reference/index.js';
import { createEventFeed, type EventFeedListener } from '../../src/state/event-feed.js';
import { scriptTask } from '../../src/testing/index.js';

const services: ReferenceService[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(services.splice(0).map((service) => service.close()));
});

/**
 * A client on a reference service whose first `failing` multiplexed reads break before any answer
 * (a dropped connection), and a promise of each read as it is sent.
 */
function setUp(failing = 0, refusal?: () => Response) {
  const service = createReferenceService({ timeScale: 0.01, tasks: [...demoTasks, hold] });
  services.push(service);
  const reads: Array<() => void> = [];
  let sent = 0;
  const client = createTaskClient({
    baseUrl: 'http://taskwire.test',
    userToken: DEMO_USER_TOKEN,
    clientToken: DEMO_CLIENT_TOKEN,
    fetch: async (request: Request) => {
      if (new URL(request.url).pathname === '/workflows/events') {
        sent += 1;
        reads.shift()?.();
        if (sent <= failing && refusal !== undefined) return refusal();
        if (sent <= failing) throw new TypeError('Failed to fetch');
      }
      return service.fetch(request);
    },
  });
  const nextRead = () => new Promise<void>((resolve) => reads.push(resolve));
  let opened = 0;
  const feed = createEventFeed({
    open: (follow, options) => {
      opened += 1;
      return resumableReadsOf(client)!.follow(follow, options);
    },
    isFinal: (event) => isFinalEvent(event as { type: string }),
  });
  return { client, feed, nextRead, sent: () => sent, opened: () => opened };
}

/** A task that reports 40 % and then holds: its log stays open for as long as a test needs. */
const hold = scriptTask('hold', [{ progress: [40, 30] }, { wait: 1e9 }, { complete: null }]);

function collect() {
  const messages: Array<{ position: string; type: string }> = [];
  const unavailable: unknown[] = [];
  const listener: EventFeedListener = {
    message: (position, event) =>
      messages.push({ position, type: (event as { type: string }).type }),
    unavailable: (error) => unavailable.push(error),
  };
  return { messages, unavailable, listener };
}

describe('createEventFeed', () => {
  it('waits the Retry-After of a read refused with 503 before it opens the read again', async () => {
    const unavailable = () =>
      new Response(
        JSON.stringify({
          status: 'error',
          statusCode: 503,
          reason: 'EVENTS_UNAVAILABLE',
          message: 'The log is away.',
        }),
        { status: 503, headers: { 'content-type': 'application/json', 'retry-after': '2' } },
      );
    const { client, feed, nextRead, sent } = setUp(1, unavailable);
    const { id } = await client.submit('hold', {});
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { messages, listener } = collect();
    const firstRead = nextRead();
    feed.follow({ task: 'hold', id }, null, listener);
    await vi.advanceTimersByTimeAsync(0);
    await firstRead;
    await vi.advanceTimersByTimeAsync(1999);
    expect(sent()).toBe(1);
    const secondRead = nextRead();
    await vi.advanceTimersByTimeAsync(1);
    await secondRead;
    vi.useRealTimers();
    await vi.waitFor(() => expect(messages.map(({ type }) => type)).toContain('task.progress'));
  });

  it('opens the read of a feed that has none at once, not after a timer: its first task, and one after every task ended', async () => {
    const { client, feed, sent } = setUp();
    const first = await client.submit('echo', { message: 'first' });
    const later = await client.submit('hold', {});
    // Only timeouts are fake, and none is let run: setImmediate stays real.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const ended = collect();
    feed.follow({ task: 'echo', id: first.id }, null, ended.listener);
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent()).toBe(1);
    await vi.waitFor(() => expect(ended.messages.at(-1)?.type).toBe('task.completed'));
    // Its final message closed the read: a later start on the page opens the next one.
    const { messages, listener } = collect();
    feed.follow({ task: 'hold', id: later.id }, null, listener);
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent()).toBe(2);
    vi.useRealTimers();
    await vi.waitFor(() => expect(messages.map(({ type }) => type)).toContain('task.progress'));
  });

  it('opens one read for the tasks followed in one task, not one read each', async () => {
    const { client, feed, opened } = setUp();
    const ids = await Promise.all([1, 2, 3].map(async () => (await client.submit('hold', {})).id));
    const followers = ids.map(() => collect());
    ids.forEach((id, index) => feed.follow({ task: 'hold', id }, null, followers[index]!.listener));
    await vi.waitFor(() => {
      for (const { messages } of followers) {
        expect(messages.map(({ type }) => type)).toContain('task.progress');
      }
    });
    expect(opened()).toBe(1);
  });

  it('gives each follower the messages after its own position, once and in order, through one read', async () => {
    const { client, feed, sent } = setUp();
    const { id } = await client.submit('render-video', { frames: 3, frameMs: 10 });
    const all: string[] = [];
    for await (const { position } of client.events('render-video', id)) all.push(position);
    const whole = collect();
    const rest = collect();
    const done = Promise.all(
      [whole, rest].map(
        ({ messages }) =>
          new Promise<void>((resolve) => {
            const check = setInterval(() => {
              if (messages.at(-1)?.type === 'task.completed') {
                clearInterval(check);
                resolve();
              }
            }, 5);
          }),
      ),
    );
    feed.follow({ task: 'render-video', id }, null, whole.listener);
    feed.follow({ task: 'render-video', id }, all[2] ?? null, rest.listener);
    await done;
    expect(whole.messages.map(({ position }) => position)).toEqual(all);
    expect(rest.messages.map(({ position }) => position)).toEqual(all.slice(3));
    expect(sent()).toBe(1);
  });

  it.each([
    ['comes back online', () => window.dispatchEvent(new Event('online'))],
    [
      'is restored from the back/forward cache',
      () => window.dispatchEvent(Object.assign(new Event('pageshow'), { persisted: true })),
    ],
    [
      'is visible again after a while hidden',
      () => {
        let state: DocumentVisibilityState = 'hidden';
        Object.defineProperty(document, 'visibilityState', {
          configurable: true,
          get: () => state,
        });
        document.dispatchEvent(new Event('visibilitychange'));
        vi.setSystemTime(Date.now() + 60_000);
        state = 'visible';
        document.dispatchEvent(new Event('visibilitychange'));
      },
    ],
  ])(
    'opens a broken read again at once when the page %s, not after its retry delay',
    async (_, comeBack) => {
      const { client, feed, nextRead } = setUp(1);
      const { id } = await client.submit('hold', {});
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      const { messages, listener } = collect();
      const firstRead = nextRead();
      feed.follow({ task: 'hold', id }, null, listener);
      await vi.advanceTimersByTimeAsync(0);
      await firstRead;
      // The first read broke; the next waits 250 ms, which this fake clock never lets pass.
      const secondRead = nextRead();
      await Promise.resolve();
      comeBack();
      await secondRead;
      vi.useRealTimers();
      await vi.waitFor(() => expect(messages.map(({ type }) => type)).toContain('task.progress'));
      Reflect.deleteProperty(document, 'visibilityState');
    },
  );
});
