import { act, waitFor } from '@testing-library/react';
import { Profiler, StrictMode, useEffect } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { taskwireKeys, useTaskResult, useTaskStream } from '../../src/react/index.js';
import { demoTasks } from '../../src/reference/index.js';
import { renderHookWithTaskwire, renderWithTaskwire, scriptTask } from '../../src/testing/index.js';
import { fakeTimersAndClock, stepFor, until } from '../support/fake-clock.js';
import { closeHookTestServices, hookTestService } from '../support/hook-test-service.js';
import { burstTask, progressSteps } from '../support/progress-steps.js';
import { withoutStreamUsage } from '../support/without-completed-usage.js';

let setUp: ReturnType<typeof hookTestService>;
afterEach(async () => {
  vi.useRealTimers();
  await closeHookTestServices();
});

const posts = () => setUp.count('stream');
const gets = () => setUp.count('result');

const spreadTask = scriptTask('spread', [...progressSteps(5, 1), { complete: { count: 5 } }]);

describe('useTaskStream', () => {
  it('streams progress, partial results and events to completion', async () => {
    setUp = hookTestService();
    const seen: string[] = [];
    const { result } = renderHookWithTaskwire(
      () => useTaskStream('render-video', { onEvent: (event) => seen.push(event.type) }),
      setUp.options,
    );
    expect(result.current.status).toBe('idle');
    act(() => result.current.start({ frames: 10, frameMs: 20 }));
    expect(result.current.status).toBe('connecting');
    await waitFor(() => expect(result.current.status).toBe('completed'));
    expect(result.current.taskId).toEqual(expect.any(String));
    expect(result.current.progress).toEqual({ percent: 100, estimatedSecondsLeft: 0 });
    expect(result.current.partialResult).toMatchObject({ frames: 5 });
    expect(result.current.result).toMatchObject({ frames: 10 });
    expect(result.current.usage?.credits).toBe(5);
    expect(seen.filter((type) => type === 'event.frame-rendered')).toHaveLength(10);
    expect(result.current.events.length).toBe(11);
    expect(posts()).toBe(1);
  });

  it('writes the finished record into the cache useTaskResult reads, with Get Result’s event ids', async () => {
    setUp = hookTestService();
    const view = renderHookWithTaskwire(() => useTaskStream('render-video'), setUp.options);
    const { result } = view;
    act(() => result.current.start({ frames: 3, frameMs: 10 }));
    await waitFor(() => expect(result.current.status).toBe('completed'));
    const id = result.current.taskId ?? '';
    // Beside the stream: the same client and QueryClient.
    const watcher = renderHookWithTaskwire(() => useTaskResult('render-video', id), view);
    expect(watcher.result.current.data?.status).toBe('COMPLETED');
    expect(gets()).toBe(0);
    const fromService = await view.client.getResult('render-video', id);
    expect(watcher.result.current.data?.events).toEqual(fromService.events);
    expect(watcher.result.current.data?.usage).toEqual(fromService.usage);
    expect(watcher.result.current.data?.result).toEqual(fromService.result);
  });

  it('keeps Get Result’s usage in the cache when task.completed carries none', async () => {
    setUp = hookTestService({ timeScale: 1 });
    // A service that breaks the interface document's rule: Get Result has usage, the stream not.
    const service = withoutStreamUsage(setUp.service);
    // The watcher polls once a minute: within the test, only the stream's end can move it.
    const { result, client } = renderHookWithTaskwire(
      () => {
        const stream = useTaskStream('render-video');
        const watched = useTaskResult('render-video', stream.taskId, {
          polling: { minIntervalMs: 60_000, maxIntervalMs: 60_000 },
        });
        return { stream, watched };
      },
      { ...setUp.options, service },
    );
    act(() => result.current.stream.start({ frames: 5, frameMs: 40 }));
    await waitFor(() => expect(result.current.stream.status).toBe('completed'));
    expect(result.current.stream.usage).toBeUndefined();
    const fromService = await client.getResult('render-video', result.current.stream.taskId ?? '');
    expect(fromService.usage?.credits).toBe(2.5);
    await waitFor(() => expect(result.current.watched.data?.usage).toEqual(fromService.usage));
    expect(result.current.watched.data?.status).toBe('COMPLETED');
  });

  it('reports a failed task as data', async () => {
    setUp = hookTestService();
    const { result } = renderHookWithTaskwire(() => useTaskStream('failing-task'), setUp.options);
    act(() => result.current.start({ reason: 'OUT_OF_PAPER' }));
    await waitFor(() => expect(result.current.status).toBe('failed'));
    expect(result.current.failure).toMatchObject({ status: 'error', reason: 'OUT_OF_PAPER' });
    expect(result.current.error).toBeUndefined();
  });

  it('leaves a failed stream’s record to Get Result, since task.failed carries no usage', async () => {
    const chargeThenFail = scriptTask('charge-then-fail', [
      { charge: { toolId: 'gpu', price: 3, amount: 2 } },
      { fail: { reason: 'OUT_OF_MEMORY', message: 'The GPU ran out of memory.' } },
    ]);
    setUp = hookTestService({ tasks: [...demoTasks, chargeThenFail] });
    const view = renderHookWithTaskwire(
      () => useTaskStream('charge-then-fail' as 'echo'),
      setUp.options,
    );
    const { result } = view;
    act(() => result.current.start({} as { message: string }));
    await waitFor(() => expect(result.current.status).toBe('failed'));
    const id = result.current.taskId ?? '';
    const watcher = renderHookWithTaskwire(
      () => useTaskResult('charge-then-fail' as 'echo', id),
      view,
    );
    await waitFor(() => expect(watcher.result.current.data?.status).toBe('FAILED'));
    expect(gets()).toBe(1);
    expect(watcher.result.current.data?.usage?.credits).toBe(6);
  });

  it('recovers a dropped stream by polling, with exactly one POST', async () => {
    // A service without resumable streams (0.3): the outcome is read with Get Result.
    setUp = hookTestService({ events: false, faults: [{ endpoint: 'stream', cutAfterEvents: 2 }] });
    const statuses: string[] = [];
    const { result } = renderHookWithTaskwire(() => {
      const stream = useTaskStream('render-video', { polling: { minIntervalMs: 20 } });
      statuses.push(stream.status);
      return stream;
    }, setUp.options);
    act(() => result.current.start({ frames: 10, frameMs: 20 }));
    await waitFor(() => expect(result.current.status).toBe('completed'), { timeout: 5000 });
    expect(statuses).toContain('recovering');
    expect(result.current.result).toMatchObject({ frames: 10 });
    expect(posts()).toBe(1);
    expect(gets()).toBeGreaterThanOrEqual(1);
  });

  it('shares the poll of a useTaskResult of the same task while recovering', async () => {
    // A service without resumable streams (0.3): the outcome is read with Get Result.
    setUp = hookTestService({ events: false, faults: [{ endpoint: 'stream', cutAfterEvents: 2 }] });
    // Measures, faults nothing: how many Get Results are in flight at once.
    let inFlight = 0;
    let mostInFlight = 0;
    const measured = {
      async fetch(request: Request) {
        if (request.method !== 'GET') return setUp.service.fetch(request);
        inFlight += 1;
        mostInFlight = Math.max(mostInFlight, inFlight);
        try {
          return await setUp.service.fetch(request);
        } finally {
          inFlight -= 1;
        }
      },
    };
    const polling = { minIntervalMs: 20 };
    const { result, client, queryClient } = renderHookWithTaskwire(
      () => {
        const stream = useTaskStream('render-video', { polling });
        const watched = useTaskResult(
          'render-video',
          stream.status === 'recovering' || stream.status === 'completed'
            ? stream.taskId
            : undefined,
          { polling },
        );
        return { stream, watched };
      },
      { ...setUp.options, service: measured },
    );
    act(() => result.current.stream.start({ frames: 10, frameMs: 20 }));
    await waitFor(() => expect(result.current.stream.status).toBe('recovering'));
    const key = taskwireKeys.result(
      client.scope,
      'render-video',
      result.current.stream.taskId ?? '',
    );
    await waitFor(() =>
      expect(queryClient.getQueryCache().find({ queryKey: key })?.observers).toHaveLength(2),
    );
    await waitFor(() => expect(result.current.stream.status).toBe('completed'), { timeout: 5000 });
    expect(result.current.watched.data?.status).toBe('COMPLETED');
    expect(result.current.stream.result).toEqual(result.current.watched.data?.result);
    expect(mostInFlight).toBe(1);
    expect(posts()).toBe(1);
  });

  it('shows why it is still recovering when the service is gone, and gives up after recoverForMs', async () => {
    // On the fake clock: the give-up and the polls that must not follow it, in simulated time.
    fakeTimersAndClock();
    setUp = hookTestService({
      events: false,
      faults: [
        { endpoint: 'stream', cutAfterEvents: 2 },
        { endpoint: 'result', lostAnswer: true },
      ],
    });
    const { result } = renderHookWithTaskwire(
      () => useTaskStream('render-video', { polling: { minIntervalMs: 20 }, recoverForMs: 500 }),
      setUp.options,
    );
    act(() => result.current.start({ frames: 10, frameMs: 20 }));
    await until(() => expect(result.current.status).toBe('recovering'));
    await until(() => expect(result.current.error?.code).toBe('network'));
    expect(result.current.status).toBe('recovering');
    await until(() => expect(result.current.status).toBe('error'), { limitMs: 3000 });
    expect(result.current.error?.code).toBe('network');
    const getsAtGiveUp = gets();
    // Past the longest wait between two failed reads (the policy's maxBackoffMs, 30 s by
    // default): a watch still running would have read again by then.
    await stepFor(30_000 + 1000);
    expect(gets()).toBe(getsAtGiveUp);
    expect(posts()).toBe(1);
  });

  it('ends in error, saying the outcome is unknown, when a dropped stream had no task id', async () => {
    // The connection drops before the answer's headers, and with them the task id, arrive.
    setUp = hookTestService({ faults: [{ endpoint: 'stream', lostAnswer: true }] });
    const { result } = renderHookWithTaskwire(() => useTaskStream('render-video'), setUp.options);
    act(() => result.current.start({ frames: 10, frameMs: 20 }));
    await waitFor(() => expect(result.current.status).toBe('error'));
    expect(result.current.error?.code).toBe('network');
    expect(result.current.error?.message).toMatch(/outcome is unknown/);
    expect(posts()).toBe(1);
    expect(gets()).toBe(0);
  });

  it('stops: aborts the request, keeps what it had, and the task goes on', async () => {
    setUp = hookTestService({ timeScale: 1 });
    const { result, client } = renderHookWithTaskwire(
      () => useTaskStream('render-video'),
      setUp.options,
    );
    act(() => result.current.start({ frames: 10, frameMs: 30 }));
    await waitFor(() => expect(result.current.progress?.percent).toBeGreaterThan(0));
    act(() => result.current.stop());
    expect(result.current.status).toBe('stopped');
    expect(setUp.service.requests.map((request) => request.aborted)).toEqual([true]);
    const id = result.current.taskId ?? '';
    await waitFor(async () =>
      expect((await client.getResult('render-video', id)).status).toBe('COMPLETED'),
    );
  });

  it('aborts on unmount and updates nothing afterwards', async () => {
    // On the fake clock: the task's end and the polls that must not come, in simulated time.
    fakeTimersAndClock();
    setUp = hookTestService({ timeScale: 1 });
    const { requests } = setUp.service;
    const view = renderHookWithTaskwire(() => useTaskStream('render-video'), setUp.options);
    act(() => view.result.current.start({ frames: 10, frameMs: 30 }));
    await until(() => expect(view.result.current.status).toBe('streaming'));
    view.unmount();
    await until(() => expect(requests.map((request) => request.aborted)).toEqual([true]));
    const requestsAtAbort = requests.length;
    // What the stream wrote while it ran (its live record, for the other views of the task).
    const cached = () =>
      view.queryClient
        .getQueryCache()
        .getAll()
        .map((query) => ({ key: query.queryKey, data: query.state.data }));
    const cachedAtAbort = cached();
    for (const { data } of cachedAtAbort) expect(data).toMatchObject({ status: 'IN_PROGRESS' });
    // Past the task's end (10 frames of 30 ms) and the longest wait between two polls of a running
    // task (the policy's maxIntervalMs, 10 s by default): a watch of it would have read by then.
    await stepFor(10_000 + 1000);
    // An aborted stream is no broken one: nothing polls its task, nothing more is written.
    expect(requests).toHaveLength(requestsAtAbort);
    expect(cached()).toEqual(cachedAtAbort);
    // Though the task did end at the service meanwhile.
    const id = view.result.current.taskId ?? '';
    expect((await view.client.getResult('render-video', id)).status).toBe('COMPLETED');
  });

  it('replaces a running stream when started again with other params', async () => {
    setUp = hookTestService();
    const { result } = renderHookWithTaskwire(() => useTaskStream('render-video'), setUp.options);
    act(() => {
      result.current.start({ frames: 30, frameMs: 20 });
      result.current.start({ frames: 2, frameMs: 5 });
    });
    await waitFor(() => expect(result.current.status).toBe('completed'));
    expect(result.current.result).toMatchObject({ frames: 2 });
  });

  it('makes one stream of a StrictMode double effect', async () => {
    setUp = hookTestService();
    let status = '';
    function StreamOnMount() {
      const stream = useTaskStream('echo');
      const { start } = stream;
      status = stream.status;
      useEffect(() => start({ message: 'strict' }), [start]);
      return null;
    }
    renderWithTaskwire(
      <StrictMode>
        <StreamOnMount />
      </StrictMode>,
      setUp.options,
    );
    await waitFor(() => expect(status).toBe('completed'));
    expect(posts()).toBe(1);
  });

  it('coalesces renders: a burst of 10,000 events commits a handful of times', async () => {
    setUp = hookTestService({ tasks: [burstTask] });
    let commits = 0;
    const { result } = renderHookWithTaskwire(() => useTaskStream('burst'), {
      ...setUp.options,
      wrapper: ({ children }) => (
        <Profiler id="stream" onRender={() => (commits += 1)}>
          {children}
        </Profiler>
      ),
    });
    const before = commits;
    act(() => result.current.start({}));
    await waitFor(() => expect(result.current.status).toBe('completed'), { timeout: 10_000 });
    expect(result.current.progress?.percent).toBe(100);
    expect(result.current.result).toEqual({ count: 10_000 });
    // start → connecting, open → streaming, a few frames, then the final flush.
    expect(commits - before).toBeLessThanOrEqual(12);
  });

  it('commits at most once per frame, a final event in a frame that already committed shown on the next', async () => {
    // Frames tick only when the test says so; `frame` numbers them.
    let frame = 0;
    const waiting = new Map<number, FrameRequestCallback>();
    let nextHandle = 1;
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => {
      waiting.set(nextHandle, callback);
      return nextHandle++;
    });
    vi.stubGlobal('cancelAnimationFrame', (handle: number) => waiting.delete(handle));
    const tick = () =>
      act(() => {
        frame += 1;
        const due = [...waiting.values()];
        waiting.clear();
        for (const callback of due) callback(performance.now());
      });
    try {
      setUp = hookTestService({ tasks: [spreadTask] });
      // The message task.completed waits until the test lets it through: a gate the test opens,
      // which no fault of withFaults is (they follow a clock, not the test's cue). What comes
      // before it in its chunk passes at once (a read writes the messages of a frame together).
      let releaseFinal = () => {};
      const finalHeld = new Promise<void>((resolve) => (releaseFinal = resolve));
      const gated = async (request: Request) => {
        const response = await setUp.service.fetch(request);
        if (
          !response.body ||
          !response.headers.get('content-type')?.startsWith('text/event-stream')
        )
          return response;
        const reader = response.body.getReader();
        const body = new ReadableStream<Uint8Array>({
          async pull(controller) {
            const { done, value } = await reader.read();
            if (done) return controller.close();
            const text = new TextDecoder().decode(value);
            const final = text.indexOf('"task.completed"');
            if (final >= 0) {
              const split = text.lastIndexOf('\n\n', final) + 2;
              if (split >= 2) controller.enqueue(new TextEncoder().encode(text.slice(0, split)));
              await finalHeld;
              controller.enqueue(new TextEncoder().encode(split >= 2 ? text.slice(split) : text));
              return;
            }
            controller.enqueue(value);
          },
          cancel: (reason) => reader.cancel(reason),
        });
        return new Response(body, { status: response.status, headers: response.headers });
      };
      const commits: Array<{ frame: number; status: string }> = [];
      let status = 'idle';
      const { result, client, queryClient } = renderHookWithTaskwire(
        () => {
          const stream = useTaskStream('spread');
          status = stream.status;
          return stream;
        },
        {
          ...setUp.options,
          service: { fetch: gated },
          wrapper: ({ children }) => (
            <Profiler id="stream" onRender={() => commits.push({ frame, status })}>
              {children}
            </Profiler>
          ),
        },
      );
      act(() => result.current.start({}));
      // Frames pass until every progress event is shown; the last of them flushes in this frame.
      await waitFor(async () => {
        await tick();
        expect(result.current.progress?.percent).toBe(100);
      });
      const committedIn = commits.at(-1)?.frame;
      expect(committedIn).toBe(frame);
      // The final event arrives within the same frame: the record reaches the cache at once…
      const id = result.current.taskId as string;
      await act(async () => {
        releaseFinal();
        await waitFor(() =>
          expect(
            queryClient.getQueryData(taskwireKeys.result(client.scope, 'spread', id)),
          ).toBeDefined(),
        );
      });
      // …but the hook does not commit a second time in this frame.
      expect(frame).toBe(committedIn);
      expect(result.current.status).toBe('streaming');
      expect(commits.filter((commit) => commit.frame === frame)).toHaveLength(1);
      await tick();
      expect(result.current.status).toBe('completed');
      expect(result.current.result).toEqual({ count: 5 });
      expect(commits.at(-1)).toEqual({ frame: (committedIn as number) + 1, status: 'completed' });
      // Every frame from start on (the open included) committed once at most; the mount is not counted.
      const fromStart = commits.slice(
        commits.findIndex((commit) => commit.status === 'connecting'),
      );
      expect(fromStart.length).toBeGreaterThan(3);
      const perFrame = new Map<number, number>();
      for (const commit of fromStart)
        perFrame.set(commit.frame, (perFrame.get(commit.frame) ?? 0) + 1);
      expect(Math.max(...perFrame.values())).toBe(1);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
