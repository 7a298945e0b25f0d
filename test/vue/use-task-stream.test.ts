/**
 * useTaskStream of taskwire/vue against the reference service in-process, as test/react's are: the
 * stream to its end with one POST, its record in the cache useTaskResult reads, a broken stream
 * read on from its log (or recovered by polling from a 0.3 service), `attach`, the refs changed at
 * most once per frame however fast events come (renders counted in the component that reads them),
 * and a replay of 10,000 buffered messages in at most two updates.
 */
import { flushPromises } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isRef, watch } from 'vue';
import { createTaskClient } from '../../src/client/index.js';
import { DEMO_CLIENT_TOKEN, DEMO_USER_TOKEN } from '../../src/reference/index.js';
import { memoryEventLog } from '../../src/server/index.js';
import { scriptTask } from '../../src/testing/index.js';
import { useTaskResult, useTaskStream } from '../../src/vue/index.js';
import { advanceClock, fakeTimersAndClock, stepFor, until } from '../support/fake-clock.js';
import { closeHookTestServices, hookTestService } from '../support/hook-test-service.js';
import { burstTask, progressSteps } from '../support/progress-steps.js';
import { mountComposable } from '../support/vue-page.js';

let setUp: ReturnType<typeof hookTestService>;
afterEach(async () => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
  await closeHookTestServices();
});

const posts = () => setUp.count('stream');
const gets = () => setUp.count('result');

const spreadTask = scriptTask('spread', [...progressSteps(20, 10), { complete: { count: 20 } }]);

describe('useTaskStream (Vue)', () => {
  it('streams progress, partial results and events to completion, with one POST', async () => {
    setUp = hookTestService();
    const seen: string[] = [];
    const { result } = mountComposable(
      () => useTaskStream('render-video', { onEvent: (event) => seen.push(event.type) }),
      setUp.options,
    );
    expect(result.status.value).toBe('idle');
    result.start({ frames: 10, frameMs: 20 });
    expect(result.status.value).toBe('connecting');
    await vi.waitFor(() => expect(result.status.value).toBe('completed'), { timeout: 5000 });
    expect(result.taskId.value).toEqual(expect.any(String));
    expect(result.progress.value).toEqual({ percent: 100, estimatedSecondsLeft: 0 });
    expect(result.partialResult.value).toMatchObject({ frames: 5 });
    expect(result.result.value).toMatchObject({ frames: 10 });
    expect(result.usage.value?.credits).toBe(5);
    expect(seen.filter((type) => type === 'event.frame-rendered')).toHaveLength(10);
    expect(result.events.value).toHaveLength(11);
    expect(posts()).toBe(1);
  });

  it('writes the finished record into the cache useTaskResult reads, so it asks no Get Result', async () => {
    setUp = hookTestService();
    const { result, client } = mountComposable(() => {
      const stream = useTaskStream('render-video');
      return { stream, watched: useTaskResult('render-video', stream.taskId) };
    }, setUp.options);
    result.stream.start({ frames: 3, frameMs: 10 });
    await vi.waitFor(() => expect(result.watched.data.value?.status).toBe('COMPLETED'), {
      timeout: 5000,
    });
    expect(result.stream.status.value).toBe('completed');
    expect(gets()).toBe(0);
    const fromService = await client.getResult('render-video', result.stream.taskId.value ?? '');
    expect(result.watched.data.value?.events).toEqual(fromService.events);
    expect(result.watched.data.value?.usage).toEqual(fromService.usage);
    expect(result.watched.data.value?.result).toEqual(fromService.result);
  });

  it('recovers a dropped stream by polling, with exactly one POST', async () => {
    // A service without resumable streams (0.3): the outcome is read with Get Result.
    setUp = hookTestService({ events: false, faults: [{ endpoint: 'stream', cutAfterEvents: 2 }] });
    const statuses: string[] = [];
    const { result } = mountComposable(
      () => useTaskStream('render-video', { polling: { minIntervalMs: 20 } }),
      setUp.options,
      (stream) => statuses.push(stream.status.value),
    );
    result.start({ frames: 10, frameMs: 20 });
    await vi.waitFor(() => expect(result.status.value).toBe('completed'), { timeout: 5000 });
    expect(statuses).toContain('recovering');
    expect(result.result.value).toMatchObject({ frames: 10 });
    expect(posts()).toBe(1);
    expect(gets()).toBeGreaterThan(0);
  });

  it('reads the rest of a broken stream from its log: every event once, in order, with its payload, and one POST', async () => {
    setUp = hookTestService({ faults: [{ endpoint: 'stream', cutAfterEvents: 4 }] });
    const seen: { type: string; frame?: unknown }[] = [];
    const statuses: string[] = [];
    const { result, client } = mountComposable(
      () => useTaskStream('render-video', { onEvent: (event) => seen.push(event) }),
      setUp.options,
      (stream) => statuses.push(stream.status.value),
    );
    result.start({ frames: 8, frameMs: 20 });
    await vi.waitFor(() => expect(result.status.value).toBe('completed'), { timeout: 5000 });
    const truth: unknown[] = [];
    for await (const { event } of client.events('render-video', result.taskId.value ?? '')) {
      if (event.type.startsWith('event.')) truth.push(event);
    }
    expect(seen).toEqual(truth);
    const frames = seen.filter((event) => event.type === 'event.frame-rendered');
    expect(frames.map((event) => event.frame)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(statuses).not.toContain('recovering');
    expect(posts()).toBe(1);
    expect(gets()).toBe(0);
  });

  it('attaches to a task another client started, posting nothing, with its whole sequence', async () => {
    setUp = hookTestService();
    const { result, client } = mountComposable(() => useTaskStream('render-video'), setUp.options);
    const { id } = await client.submit('render-video', { frames: 4, frameMs: 20 });
    result.attach(id);
    await vi.waitFor(() => expect(result.status.value).toBe('completed'), { timeout: 5000 });
    expect(result.taskId.value).toBe(id);
    const frames = result.events.value.filter((event) => event.type === 'event.frame-rendered');
    expect(frames).toHaveLength(4);
    expect(posts()).toBe(0);
  });

  it("aborts on unmount, and nothing polls or changes after it, past the task's end and the slowest poll", async () => {
    // On the fake clock: the task's end and the polls that must not come, in simulated time.
    fakeTimersAndClock();
    setUp = hookTestService({ timeScale: 1 });
    const { requests } = setUp.service;
    const page = mountComposable(() => useTaskStream('render-video'), setUp.options);
    page.result.start({ frames: 10, frameMs: 30 });
    await until(() => page.result.status.value === 'streaming', { advance: advanceClock });
    page.wrapper.unmount();
    await until(() => requests[0]?.aborted === true, { advance: advanceClock });
    expect(requests.map((request) => request.aborted)).toEqual([true]);
    const progress = page.result.progress.value;
    // What the stream wrote while it ran (its live record, for the other views of the task).
    const cached = () =>
      page.queryClient
        .getQueryCache()
        .getAll()
        .map((query) => ({ key: query.queryKey, data: query.state.data }));
    const cachedAtAbort = cached();
    for (const { data } of cachedAtAbort) expect(data).toMatchObject({ status: 'IN_PROGRESS' });
    // Past the task's end (10 frames of 30 ms) and the longest wait between two polls of a running
    // task (the policy's maxIntervalMs, 10 s by default): a watch of it would have read by then.
    await stepFor(10_000 + 1000, { advance: advanceClock });
    // An aborted stream is no broken one: nothing polls its task, nothing more is written.
    expect(requests).toHaveLength(1);
    expect(cached()).toEqual(cachedAtAbort);
    // Unmounted, it shows what it had: no event, no record read came in after the abort.
    expect(page.result.status.value).toBe('streaming');
    expect(page.result.progress.value).toBe(progress);
    // Though the task did end at the service meanwhile.
    const id = page.result.taskId.value ?? '';
    expect((await page.client.getResult('render-video', id)).status).toBe('COMPLETED');
  });

  it('updates a handful of times for a burst of 10,000 events', async () => {
    setUp = hookTestService({ tasks: [burstTask] });
    const page = mountComposable(
      () => useTaskStream('burst'),
      setUp.options,
      (stream) => [stream.status.value, stream.progress.value?.percent],
    );
    const before = page.renders();
    page.result.start({});
    await vi.waitFor(() => expect(page.result.status.value).toBe('completed'), { timeout: 10_000 });
    await flushPromises();
    expect(page.result.progress.value?.percent).toBe(100);
    expect(page.result.result.value).toEqual({ count: 10_000 });
    // start → connecting, open → streaming, a few frames, then the final flush.
    expect(page.renders() - before).toBeLessThanOrEqual(12);
  });

  it('replays 10,000 buffered messages in at most two updates, each message once and in order, with no recursive-update warning', async () => {
    const burst = scriptTask('burst', [
      ...Array.from({ length: 10_000 }, (_, index) => ({ emit: ['tick', { n: index }] }) as const),
      { complete: { count: 10_000 } },
    ]);
    setUp = hookTestService({
      tasks: [burst],
      events: memoryEventLog({ maxLogBytes: 8 * 1024 * 1024 }),
    });
    const starter = createTaskClient({
      baseUrl: 'http://taskwire.test',
      userToken: DEMO_USER_TOKEN,
      clientToken: DEMO_CLIENT_TOKEN,
      fetch: (request) => setUp.service.fetch(request),
    });
    const { id } = await starter.submit('burst', {});
    await vi.waitFor(
      async () => expect((await starter.getResult('burst', id)).status).toBe('COMPLETED'),
      { timeout: 10_000 },
    );

    // Vue's "Maximum recursive updates exceeded" goes through its warn and error handlers.
    const warnings = vi.spyOn(console, 'warn');
    const errors = vi.spyOn(console, 'error');
    const seen: number[] = [];
    // The statuses of each post-flush watcher run: Vue's equivalent of a React commit, taken on
    // every ref the composable returns, so any change of its state counts.
    const updates: string[] = [];
    const page = mountComposable(
      () => {
        const stream = useTaskStream('burst', {
          onEvent: (event) => seen.push(Number(event.n)),
        });
        const refs = Object.values(stream).filter((value) => isRef(value));
        watch(refs, () => updates.push(stream.status.value), { flush: 'post' });
        return stream;
      },
      setUp.options,
      (stream) => [stream.status.value, stream.progress.value, stream.events.value.length],
    );
    await flushPromises();
    const updatesBefore = updates.length;
    const rendersBefore = page.renders();
    const readsBefore = setUp.count('result');
    page.result.attach(id);
    await vi.waitFor(() => expect(page.result.status.value).toBe('completed'), { timeout: 10_000 });
    await flushPromises();
    // The attach shows `connecting` (one update); the replay then adds at most two.
    const fromAttach = updates.slice(updatesBefore);
    expect(fromAttach[0]).toBe('connecting');
    expect(fromAttach.length).toBeLessThanOrEqual(3);
    expect(fromAttach.at(-1)).toBe('completed');
    expect(page.renders() - rendersBefore).toBeLessThanOrEqual(3);
    expect(seen).toEqual(Array.from({ length: 10_000 }, (_, index) => index));
    expect(page.result.result.value).toEqual({ count: 10_000 });
    expect(warnings).not.toHaveBeenCalled();
    expect(errors).not.toHaveBeenCalled();
    // Replayed from the log, not read with Get Result.
    expect(setUp.count('result')).toBe(readsBefore);
  });

  it('renders at most once per frame while events come one per chunk', async () => {
    // Frames tick only when the test says so; `frame` numbers them.
    let frame = 0;
    const waiting = new Map<number, FrameRequestCallback>();
    let nextHandle = 1;
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => {
      waiting.set(nextHandle, callback);
      return nextHandle++;
    });
    vi.stubGlobal('cancelAnimationFrame', (handle: number) => waiting.delete(handle));
    const tick = async () => {
      frame += 1;
      const due = [...waiting.values()];
      waiting.clear();
      for (const callback of due) callback(performance.now());
      await flushPromises();
    };
    setUp = hookTestService({ tasks: [spreadTask], timeScale: 1 });
    const renderedIn: number[] = [];
    const page = mountComposable(
      () => useTaskStream('spread'),
      setUp.options,
      (stream) => renderedIn.push(frame) && [stream.status.value, stream.progress.value?.percent],
    );
    const mounted = renderedIn.length;
    page.result.start({});
    // `connecting`, shown at once, renders in the frame the start came in.
    await flushPromises();
    // A frame at every check, several while the events come 10 ms apart.
    await vi.waitFor(
      async () => {
        await tick();
        expect(page.result.status.value).toBe('completed');
      },
      { interval: 5, timeout: 5000 },
    );
    await tick();
    const fromStart = renderedIn.slice(mounted);
    // connecting, streaming, progress over several frames, completed.
    expect(fromStart.length).toBeGreaterThan(3);
    const perFrame = new Map<number, number>();
    for (const at of fromStart) perFrame.set(at, (perFrame.get(at) ?? 0) + 1);
    expect(Math.max(...perFrame.values())).toBe(1);
    expect(page.result.result.value).toEqual({ count: 20 });
  });
});
