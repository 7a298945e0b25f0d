/**
 * useTaskStream through the server proxy with an event log (docs/protocol.md,
 * "Resumable streams (0.4)"), in front of a reference service that offers no resumable streams of its
 * own (a 0.3 service, on loopback): the proxy's log, in memory or in a real Redis, gives a page
 * reloaded mid-run the task's whole sequence once, with payloads, and the service sees one POST; with
 * Redis gone mid-run, the page follows the task with Get Result and shows no error.
 */
import { act, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createTaskClient } from '../../src/client/index.js';
import { createTaskJournal, useTaskStream } from '../../src/index.js';
import {
  createReferenceService,
  DEMO_CLIENT_TOKEN,
  DEMO_USER_TOKEN,
  demoTaskSchemas,
} from '../../src/reference/index.js';
import { startReferenceServer } from '../../src/reference/node/index.js';
import type { EventLog } from '../../src/events/event-log.js';
import { createTaskProxy, memoryEventLog } from '../../src/server/index.js';
import { redisEventLog } from '../../src/server/redis/index.js';
import { renderHookWithTaskwire } from '../../src/testing/index.js';
import { closeJournalPages, openJournalPage } from '../support/journal-page.js';
import { mapStorage } from '../support/map-storage.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await closeJournalPages();
  for (const close of closers.splice(0).reverse()) await close();
});

/** A 0.3 reference service on loopback, counting the POSTs it answers, and a proxy with `events`. */
async function proxied(events: EventLog) {
  const upstream = createReferenceService({ timeScale: 0.2, events: false });
  const posts: string[] = [];
  const server = await startReferenceServer({
    service: {
      fetch: (request) => {
        if (request.method === 'POST') posts.push(new URL(request.url).pathname);
        return upstream.fetch(request);
      },
    },
  });
  closers.push(async () => {
    await server.close();
    await upstream.close();
  });
  const proxy = createTaskProxy({
    target: server.url,
    clientToken: DEMO_CLIENT_TOKEN,
    tasks: ['render-video'],
    events,
  });
  const direct = createTaskClient({
    baseUrl: server.url,
    userToken: DEMO_USER_TOKEN,
    clientToken: DEMO_CLIENT_TOKEN,
    tasks: demoTaskSchemas,
  });
  return { proxy, posts, direct };
}

type SeenEvent = { type: string } & Record<string, unknown>;

/** A page on the proxy, with a journal on `storage`. */
function page(proxy: { fetch: (request: Request) => Promise<Response> }, storage = mapStorage()) {
  return openJournalPage(proxy, { journal: createTaskJournal({ storage }) });
}

async function redisLog(): Promise<{ redis: RedisServer; log: EventLog }> {
  const redis = await startRedisServer();
  closers.push(() => redis.stop());
  const log = redisEventLog({ url: redis.url });
  closers.push(() => log.close());
  return { redis, log };
}

describe('useTaskStream through the proxy with an event log', () => {
  it.each([
    ['in memory', async () => memoryEventLog()],
    ['in Redis', async () => (await redisLog()).log],
  ])(
    'gives a page reloaded mid-run the whole sequence once, with payloads, and one POST (log %s)',
    async (_, makeLog) => {
      const { proxy, posts, direct } = await proxied(await makeLog());
      const storage = mapStorage();
      const first = page(proxy, storage);
      const before = renderHookWithTaskwire(
        () => useTaskStream('render-video', { resumeKey: 'render' }),
        first.options,
      );
      act(() => before.result.current.start({ frames: 10, frameMs: 60 }));
      await waitFor(() => expect(before.result.current.events.length).toBeGreaterThanOrEqual(3), {
        timeout: 5000,
      });
      const id = before.result.current.taskId ?? '';
      before.unmount();
      first.queryClient.clear();

      const second = page(proxy, storage);
      const seen: SeenEvent[] = [];
      const after = renderHookWithTaskwire(
        () =>
          useTaskStream('render-video', {
            resumeKey: 'render',
            onEvent: (event) => seen.push(event as SeenEvent),
          }),
        second.options,
      );
      await waitFor(() => expect(after.result.current.status).toBe('completed'), {
        timeout: 10_000,
      });
      const frames = seen.filter((event) => event.type === 'event.frame-rendered');
      expect(frames.map((event) => event.frame)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      // The same custom events, by id, as the service's own record lists.
      const record = await direct.getResult('render-video', id);
      expect(seen.map((event) => event.eventId)).toEqual(record.events.map((event) => event.id));
      expect(after.result.current.result).toEqual(record.result);
      expect(posts).toEqual(['/workflows/render-video/stream']);
    },
    20_000,
  );

  it('follows the task with Get Result when Redis goes away mid-run, and shows no error', async () => {
    const { redis, log } = await redisLog();
    const { proxy, posts, direct } = await proxied(log);
    const current = page(proxy);
    const statuses: string[] = [];
    const errors: unknown[] = [];
    const stream = renderHookWithTaskwire(() => {
      const state = useTaskStream('render-video', { polling: { minIntervalMs: 20 } });
      statuses.push(state.status);
      if (state.error) errors.push(state.error);
      return state;
    }, current.options);
    act(() => stream.result.current.start({ frames: 10, frameMs: 100 }));
    await waitFor(() => expect(stream.result.current.events.length).toBeGreaterThanOrEqual(2), {
      timeout: 5000,
    });
    await redis.stop();
    await waitFor(() => expect(stream.result.current.status).toBe('completed'), {
      timeout: 15_000,
    });
    const record = await direct.getResult('render-video', stream.result.current.taskId ?? '');
    expect(stream.result.current.result).toEqual(record.result);
    expect(stream.result.current.usage).toEqual(record.usage);
    expect(statuses).not.toContain('error');
    expect(errors).toEqual([]);
    expect(posts).toEqual(['/workflows/render-video/stream']);
  }, 30_000);
});
