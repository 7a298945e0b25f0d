/**
 * useTaskStream against a service that offers resumable streams (docs/protocol.md,
 * "Resumable streams (0.4)"): the reference service natively. Every break reads the rest of the
 * task from its log, after a break from the last position the page had, after a reload or an
 * `attach` from the first message: each custom event once, in order, with its payload, and the
 * task posted once. The same hook against a service without them is tested in
 * use-task-stream.test.tsx and resume.test.tsx.
 */
import { act, waitFor } from '@testing-library/react';
import { Profiler, type ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { createTaskClient, type TaskClient } from '../../src/client/index.js';
import { memoryEventLog } from '../../src/server/index.js';
import { createTaskJournal, useTaskStream } from '../../src/index.js';
import {
  DEMO_CLIENT_TOKEN,
  demoTasks,
  demoTaskSchemas,
  OTHER_USER_TOKEN,
} from '../../src/reference/index.js';
import { renderHookWithTaskwire, renderWithTaskwire, scriptTask } from '../../src/testing/index.js';
import { closeHookTestServices, hookTestService } from '../support/hook-test-service.js';
import { closeJournalPages, journalPageService, openJournalPage } from '../support/journal-page.js';
import { mapStorage } from '../support/map-storage.js';

afterEach(async () => {
  await closeHookTestServices();
  await closeJournalPages();
});

/** A custom event as the page saw it: its type, its id and its payload. */
type SeenEvent = { type: string; eventId?: unknown } & Record<string, unknown>;

/** The task's whole sequence of custom events, read on its own from its log (the truth to compare). */
async function customEventsOf(
  client: TaskClient<typeof demoTaskSchemas>,
  task: 'render-video',
  id: string,
) {
  const events: SeenEvent[] = [];
  for await (const { event } of client.events(task, id)) {
    if (event.type.startsWith('event.')) events.push(event as SeenEvent);
  }
  return events;
}

describe('useTaskStream with resumable streams', () => {
  it('reads the rest of a broken stream from its log after the last position: every event once, in order, with its payload, and one POST', async () => {
    const setUp = hookTestService({ faults: [{ endpoint: 'stream', cutAfterEvents: 4 }] });
    const seen: SeenEvent[] = [];
    const statuses: string[] = [];
    const { result, client } = renderHookWithTaskwire(() => {
      const stream = useTaskStream('render-video', {
        onEvent: (event) => seen.push(event as SeenEvent),
      });
      statuses.push(stream.status);
      return stream;
    }, setUp.options);
    act(() => result.current.start({ frames: 8, frameMs: 20 }));
    await waitFor(() => expect(result.current.status).toBe('completed'), { timeout: 5000 });
    const id = result.current.taskId ?? '';
    const truth = await customEventsOf(client, 'render-video', id);
    expect(truth.filter((event) => event.type === 'event.frame-rendered')).toHaveLength(8);
    expect(seen).toEqual(truth);
    // Payloads, not references: each frame event carries its frame.
    expect(
      seen.filter((event) => event.type === 'event.frame-rendered').map((e) => e.frame),
    ).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(statuses).not.toContain('recovering');
    expect(setUp.count('stream')).toBe(1);
    expect(setUp.count('result')).toBe(0);
    const record = await client.getResult('render-video', id);
    expect(result.current.result).toEqual(record.result);
  });

  it('takes a task up after a reload from its first message: the whole sequence once, with payloads, and one POST', async () => {
    const service = journalPageService(0.2);
    const storage = mapStorage();
    const requests: string[] = [];
    const page = () =>
      openJournalPage(service, {
        journal: createTaskJournal({ storage }),
        onRequest: (request) => requests.push(`${request.method} ${new URL(request.url).pathname}`),
      });
    const first = page();
    const before = renderHookWithTaskwire(
      () => useTaskStream('render-video', { resumeKey: 'render' }),
      first.options,
    );
    act(() => before.result.current.start({ frames: 10, frameMs: 60 }));
    await waitFor(() => expect(before.result.current.events.length).toBeGreaterThanOrEqual(3));
    const id = before.result.current.taskId ?? '';
    before.unmount();
    first.queryClient.clear();

    const second = page();
    const seen: SeenEvent[] = [];
    const statuses: string[] = [];
    const after = renderHookWithTaskwire(() => {
      const stream = useTaskStream('render-video', {
        resumeKey: 'render',
        maxEvents: 1000,
        onEvent: (event) => seen.push(event as SeenEvent),
      });
      statuses.push(stream.status);
      return stream;
    }, second.options);
    expect(statuses[0]).toBe('recovering');
    expect(after.result.current.taskId).toBe(id);
    await waitFor(() => expect(after.result.current.status).toBe('completed'), { timeout: 5000 });
    expect(seen).toEqual(await customEventsOf(second.client, 'render-video', id));
    expect(seen.filter((event) => event.type === 'event.frame-rendered')).toHaveLength(10);
    expect(after.result.current.events).toEqual(seen);
    expect(statuses).toContain('streaming');
    expect(requests.filter((line) => line === 'POST /workflows/render-video/stream')).toHaveLength(
      1,
    );
    expect(requests.filter((line) => line.endsWith('/result'))).toEqual([]);
  });

  it('attaches to a task from another client of the same user with its whole sequence, and refuses another user', async () => {
    const setUp = hookTestService();
    const starter = createTaskClient({
      baseUrl: 'http://taskwire.test',
      fetch: setUp.service.fetch,
      userToken: 'demo-user-token',
      clientToken: DEMO_CLIENT_TOKEN,
      tasks: demoTaskSchemas,
    });
    const { id } = await starter.submit('render-video', { frames: 6, frameMs: 20 });

    const seen: SeenEvent[] = [];
    const device = renderHookWithTaskwire(
      () => useTaskStream('render-video', { onEvent: (event) => seen.push(event as SeenEvent) }),
      setUp.options,
    );
    act(() => device.result.current.attach(id));
    expect(device.result.current.taskId).toBe(id);
    await waitFor(() => expect(device.result.current.status).toBe('completed'), { timeout: 5000 });
    expect(seen).toEqual(await customEventsOf(starter, 'render-video', id));
    expect(seen.filter((event) => event.type === 'event.frame-rendered')).toHaveLength(6);

    const stranger = renderHookWithTaskwire(() => useTaskStream('render-video'), {
      ...setUp.options,
      clientConfig: { ...setUp.options.clientConfig, userToken: OTHER_USER_TOKEN },
    });
    act(() => stranger.result.current.attach(id));
    await waitFor(() => expect(stranger.result.current.status).toBe('error'), { timeout: 5000 });
    expect(stranger.result.current.error).toMatchObject({
      status: 404,
      reason: 'RESULT_NOT_FOUND',
    });
    expect(stranger.result.current.events).toEqual([]);
    expect(setUp.count('stream')).toBe(0);
    expect(setUp.count('submit')).toBe(1);
  });

  it('falls back to Get Result for a log past its limits, and shows the outcome', async () => {
    // A log of 300 bytes keeps only the last messages: a read from the first is answered 410.
    const setUp = hookTestService({ events: memoryEventLog({ maxLogBytes: 300 }) });
    const starter = renderHookWithTaskwire(() => useTaskStream('render-video'), setUp.options);
    act(() => starter.result.current.start({ frames: 6, frameMs: 5 }));
    await waitFor(() => expect(starter.result.current.status).toBe('completed'), { timeout: 5000 });
    const id = starter.result.current.taskId ?? '';

    const later = renderHookWithTaskwire(() => useTaskStream('render-video'), setUp.options);
    act(() => later.result.current.attach(id));
    await waitFor(() => expect(later.result.current.status).toBe('completed'), { timeout: 5000 });
    const record = await later.client.getResult('render-video', id);
    expect(later.result.current.result).toEqual(record.result);
    expect(later.result.current.usage).toEqual(record.usage);
    expect(later.result.current.error).toBeUndefined();
    // The log was tried first (and answered the task 410 within the read), then Get Result.
    expect(setUp.service.requests.map(({ method, path }) => `${method} ${path}`)).toContain(
      'POST /workflows/events',
    );
    expect(setUp.count('result')).toBeGreaterThanOrEqual(1);
  });

  it('replays 10,000 buffered messages in at most two commits, with no update-depth error', async () => {
    const burst = scriptTask('burst', [
      ...Array.from({ length: 10_000 }, (_, index) => ({ progress: [index / 100, 1] }) as const),
      { complete: { count: 10_000 } },
    ]);
    const setUp = hookTestService({
      tasks: [...demoTasks, burst],
      events: memoryEventLog({ maxLogBytes: 8 * 1024 * 1024 }),
    });
    const starter = createTaskClient({
      baseUrl: 'http://taskwire.test',
      fetch: setUp.service.fetch,
      userToken: 'demo-user-token',
      clientToken: DEMO_CLIENT_TOKEN,
    });
    const { id } = await starter.submit('burst', {});
    await waitFor(async () =>
      expect((await starter.getResult('burst', id)).status).toBe('COMPLETED'),
    );

    let commits = 0;
    let attach: (taskId: string) => void = () => undefined;
    let status = '';
    function Page() {
      const stream = useTaskStream('burst');
      attach = stream.attach;
      status = stream.status;
      return <output>{stream.progress?.percent ?? 0}</output>;
    }
    const errors: unknown[] = [];
    const onError = (event: ErrorEvent) => errors.push(event.error);
    window.addEventListener('error', onError);
    const Counted = ({ children }: { children: ReactNode }) => (
      <Profiler id="page" onRender={() => (commits += 1)}>
        {children}
      </Profiler>
    );
    renderWithTaskwire(
      <Counted>
        <Page />
      </Counted>,
      setUp.options,
    );
    const before = commits;
    const readsBefore = setUp.count('result');
    act(() => attach(id));
    const afterAttach = commits;
    await waitFor(() => expect(status).toBe('completed'), { timeout: 10_000 });
    window.removeEventListener('error', onError);
    // The attach itself shows `connecting` (one commit); the replay then adds at most two.
    expect(afterAttach - before).toBe(1);
    expect(commits - afterAttach).toBeLessThanOrEqual(2);
    expect(errors).toEqual([]);
    // Replayed from the log, not read with Get Result.
    expect(setUp.count('result')).toBe(readsBefore);
  });

  it('holds one long-lived connection for 50 streams of a page, started with short requests, every event with its payload', async () => {
    const setUp = hookTestService({ limits: { tasksPerUser: 64 } });
    // The fetch seam: each event-stream answer, from its answer to the end of its body.
    let open = 0;
    let mostOpen = 0;
    let readsOpened = 0;
    const measured = {
      async fetch(request: Request) {
        const response = await setUp.service.fetch(request);
        if (!response.headers.get('content-type')?.startsWith('text/event-stream')) return response;
        readsOpened += 1;
        open += 1;
        mostOpen = Math.max(mostOpen, open);
        let closed = false;
        const close = () => {
          if (closed) return;
          closed = true;
          open -= 1;
        };
        const body = response.body?.pipeThrough(
          new TransformStream({ flush: close, cancel: close } as Transformer & {
            cancel: () => void;
          }),
        );
        return new Response(body, response);
      },
    };
    const seen = new Map<number, SeenEvent[]>();
    const streams: ReturnType<typeof useTaskStream<'render-video'>>[] = [];
    function Row({ index }: { index: number }) {
      streams[index] = useTaskStream('render-video', {
        maxEvents: 100,
        onEvent: (event) => seen.set(index, [...(seen.get(index) ?? []), event as SeenEvent]),
      });
      return null;
    }
    const page = renderWithTaskwire(
      <>
        {Array.from({ length: 50 }, (_, index) => (
          <Row key={index} index={index} />
        ))}
      </>,
      { ...setUp.options, service: measured },
    );
    // Frames of 20 ms (the service runs at 1/100 of the time). Any answer tells the client the service offers resumable streams: here, a price.
    await page.client.options('render-video', { frames: 4 });
    // Five waves of ten, each once the wave before streams: every wave hands the read over.
    for (let wave = 0; wave < 5; wave++) {
      const rows = Array.from({ length: 10 }, (_, index) => wave * 10 + index);
      act(() => {
        for (const row of rows) streams[row]?.start({ frames: 4, frameMs: 2000 });
      });
      await waitFor(() => expect(rows.every((row) => seen.has(row))).toBe(true), {
        timeout: 10_000,
      });
    }
    await waitFor(
      () => expect(streams.every((stream) => stream.status === 'completed')).toBe(true),
      { timeout: 20_000 },
    );
    for (let index = 0; index < 50; index++) {
      const frames = (seen.get(index) ?? []).filter(
        (event) => event.type === 'event.frame-rendered',
      );
      expect(frames.map((event) => event.frame)).toEqual([1, 2, 3, 4]);
    }
    // A hand-over overlaps for a moment, never more: with three open, an older read would have
    // outlived the one after it.
    expect(readsOpened).toBeGreaterThanOrEqual(3);
    expect(mostOpen).toBeLessThanOrEqual(2);
    expect(open).toBe(0);
    // Each stream started with one short request (202), none with a stream of its own.
    expect(setUp.count('stream')).toBe(50);
    expect(setUp.count('result')).toBe(0);
  }, 30_000);
});
