/**
 * useTaskResult's polling on fake timers (timers and the clock only, so the in-process service's
 * answers still come through), counted in simulated time. Every test renders with the public
 * `renderHookWithTaskwire` / `renderWithTaskwire` on the demo tasks at their full length, the
 * requests recorded by `recordRequests` and faults put in by `withFaults`.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useTaskResult, type UseTaskResultOptions } from '../../src/react/index.js';
import { DEMO_USER_TOKEN } from '../../src/reference/index.js';
import { renderHookWithTaskwire, renderWithTaskwire } from '../../src/testing/index.js';
import { closeHookTestServices, hookTestService } from '../support/hook-test-service.js';
import { fakeTimersAndClock, step } from '../support/fake-clock.js';

let setUp: ReturnType<typeof hookTestService>;
beforeEach(() => {
  fakeTimersAndClock();
});
afterEach(async () => {
  await closeHookTestServices();
  vi.useRealTimers();
});

/** Advances the fake clock by `ms` in steps of `stepMs`, letting the service and React run after each. */
async function advance(ms: number, stepMs = 100) {
  for (let elapsed = 0; elapsed < ms; elapsed += stepMs) await step(stepMs);
}

type RenderParams = { frames: number; frameMs: number };

/**
 * Renders useTaskResult with no id yet, submits a render-video through the hook's own client, and
 * hands the hook its id, as a screen does with the id its submit answered.
 */
async function watchRender(params: RenderParams, options?: UseTaskResultOptions) {
  const view = renderHookWithTaskwire(
    ({ id }: { id: string | undefined }) => useTaskResult('render-video', id, options),
    { ...setUp.options, initialProps: { id: undefined as string | undefined } },
  );
  const { id } = await view.client.submit('render-video', params);
  view.rerender({ id });
  return Object.assign(view, { id });
}

const gets = () => setUp.count('result');

describe('useTaskResult', () => {
  it('is idle while the id is undefined', async () => {
    setUp = hookTestService({ timeScale: 1 });
    const { result } = renderHookWithTaskwire(
      () => useTaskResult('render-video', undefined),
      setUp.options,
    );
    await advance(5000);
    expect(result.current.fetchStatus).toBe('idle');
    expect(gets()).toBe(0);
  });

  it('polls until COMPLETED and then never again', async () => {
    setUp = hookTestService({ timeScale: 1 });
    const { result } = await watchRender({ frames: 10, frameMs: 500 });
    await advance(12_000);
    expect(result.current.data?.status).toBe('COMPLETED');
    expect(result.current.data?.result).toMatchObject({ frames: 10 });
    const polls = gets();
    // About one poll a second over a five-second task, never a storm.
    expect(polls).toBeGreaterThanOrEqual(3);
    expect(polls).toBeLessThanOrEqual(10);
    await advance(60_000, 1000);
    expect(gets()).toBe(polls);
  });

  it('waits at least the floor and the service’s Retry-After between polls', async () => {
    setUp = hookTestService({ timeScale: 1 });
    await watchRender({ frames: 20, frameMs: 1000 });
    await advance(30_000, 250);
    const polls = setUp.service.requests.filter((request) => request.method === 'GET');
    const times = polls.map((request) => request.at);
    const hints = polls.map(
      (request) => Number(request.answer?.headers.get('retry-after') ?? 0) * 1000,
    );
    expect(times.length).toBeGreaterThanOrEqual(3);
    for (let index = 1; index < times.length; index += 1) {
      const gap = (times[index] ?? 0) - (times[index - 1] ?? 0);
      expect(gap).toBeGreaterThanOrEqual(Math.max(1000, hints[index - 1] ?? 0));
    }
  });

  it('makes the same requests for five watchers, mounted at different times, as for one', async () => {
    function Watcher({ id }: { id: string | undefined }) {
      const { data } = useTaskResult('render-video', id);
      return <span>{data?.progress.percent ?? '-'}</span>;
    }
    function Page({ count, id }: { count: number; id: string | undefined }) {
      return (
        <>
          {Array.from({ length: count }, (_, index) => (
            <Watcher key={index} id={id} />
          ))}
        </>
      );
    }
    const pollsWith = async (watchers: number) => {
      setUp = hookTestService({ timeScale: 1 });
      const view = renderWithTaskwire(<Page count={1} id={undefined} />, setUp.options);
      const { id } = await view.client.submit('render-video', { frames: 10, frameMs: 500 });
      view.rerender(<Page count={1} id={id} />);
      for (let count = 2; count <= watchers; count += 1) {
        await advance(300);
        view.rerender(<Page count={count} id={id} />);
      }
      await advance(15_000 - (watchers - 1) * 300);
      const polls = gets();
      view.unmount();
      await setUp.service.close();
      return polls;
    };
    const one = await pollsWith(1);
    const five = await pollsWith(5);
    expect(Math.abs(five - one)).toBeLessThanOrEqual(1);
  });

  it('fetches nothing after unmount', async () => {
    setUp = hookTestService({ timeScale: 1 });
    const view = await watchRender({ frames: 20, frameMs: 1000 });
    await advance(3000);
    view.unmount();
    const polls = gets();
    await advance(30_000, 1000);
    expect(gets()).toBe(polls);
  });

  it('pauses while the tab is hidden and refreshes at once when it shows again', async () => {
    setUp = hookTestService({ timeScale: 1 });
    await watchRender({ frames: 60, frameMs: 1000 });
    await advance(3000);
    const setVisibility = (state: 'hidden' | 'visible') => {
      Object.defineProperty(document, 'visibilityState', { value: state, configurable: true });
      document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
    };
    try {
      setVisibility('hidden');
      const before = gets();
      await advance(20_000, 500);
      expect(gets()).toBe(before);
      setVisibility('visible');
      await advance(100, 50);
      expect(gets()).toBe(before + 1);
    } finally {
      setVisibility('visible');
    }
  });

  it('reports each custom event once, by id', async () => {
    setUp = hookTestService({ timeScale: 1 });
    const seen: string[] = [];
    const { client, id } = await watchRender(
      { frames: 6, frameMs: 500 },
      { onEvent: (event) => seen.push(event.id) },
    );
    await advance(10_000);
    const record = await client.getResult('render-video', id);
    // Six frame events and one thumbnail event, each once, in the service's order.
    expect(record.events).toHaveLength(7);
    expect(seen).toEqual(record.events.map((event) => event.id));
  });

  it('backs off while the service fails, then resumes', async () => {
    // The four Get Results of the first 20 s (at 0, 2, 6 and 14 s) fail; the next is served.
    setUp = hookTestService({
      timeScale: 1,
      faults: [1, 2, 3, 4].map((request) => ({
        endpoint: 'result' as const,
        request,
        status: 503,
      })),
    });
    // Read in render what the test reads: TanStack Query re-renders only for properties a render used.
    const view = renderHookWithTaskwire(
      ({ id }: { id: string | undefined }) => {
        const { data, error } = useTaskResult('render-video', id, { polling: { random: () => 1 } });
        return { data, error };
      },
      { ...setUp.options, initialProps: { id: undefined as string | undefined } },
    );
    const { id } = await view.client.submit('render-video', { frames: 30, frameMs: 1000 });
    view.rerender({ id });
    const { result } = view;
    await advance(20_000, 250);
    expect(result.current.error?.status).toBe(503);
    // Gaps of 2 s, 4 s, 8 s… with the jitter at its maximum.
    const failedAt = setUp.service.requests
      .filter((request) => request.method === 'GET' && request.answer?.status === 503)
      .map((request) => request.at);
    const gaps = failedAt.slice(1).map((time, index) => time - (failedAt[index] ?? 0));
    expect(gaps.slice(0, 3)).toEqual([2000, 4000, 8000]);
    await advance(40_000, 500);
    expect(result.current.data?.status).toBe('COMPLETED');
  });

  it('stops polling at a 404 that will not heal', async () => {
    setUp = hookTestService({ timeScale: 1 });
    const { result } = renderHookWithTaskwire(() => {
      const { error } = useTaskResult('render-video', 'no-such-task');
      return { error };
    }, setUp.options);
    await advance(10_000, 500);
    expect(result.current.error?.reason).toBe('RESULT_NOT_FOUND');
    expect(gets()).toBe(1);
  });

  it('refreshes the tokens once after a 401 and goes on', async () => {
    setUp = hookTestService({ timeScale: 1 });
    let token = DEMO_USER_TOKEN;
    let refreshes = 0;
    const view = renderHookWithTaskwire(
      ({ id }: { id: string | undefined }) => useTaskResult('render-video', id),
      {
        ...setUp.options,
        clientConfig: {
          ...setUp.options.clientConfig,
          userToken: () => token,
          onUnauthorized: () => {
            refreshes += 1;
            token = DEMO_USER_TOKEN;
          },
        },
        initialProps: { id: undefined as string | undefined },
      },
    );
    const { id } = await view.client.submit('render-video', { frames: 2, frameMs: 500 });
    // The user's token expires after the submit, before the first poll.
    token = 'expired-token';
    view.rerender({ id });
    await advance(5000);
    expect(view.result.current.data?.status).toBe('COMPLETED');
    expect(refreshes).toBe(1);
  });
});
