import { act, render, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTaskClient } from '../../src/client/index.js';
import { useTaskResult } from '../../src/react/index.js';
import { DEMO_CLIENT_TOKEN, DEMO_USER_TOKEN } from '../../src/reference/index.js';
import { createHarness } from './harness.js';

let harness: ReturnType<typeof createHarness>;
beforeEach(() => {
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
  });
});
afterEach(async () => {
  await harness.close();
  vi.useRealTimers();
});

/** Advances the fake clock in small steps, letting React and the service run in between. */
async function advance(ms: number, step = 100) {
  for (let elapsed = 0; elapsed < ms; elapsed += step) {
    await act(() => vi.advanceTimersByTimeAsync(step));
  }
}

async function submitRender(frames = 10, frameMs = 500) {
  const { id } = await harness.client.submit('render-video', { frames, frameMs });
  return id;
}

const gets = () => harness.count(/^GET .*\/result$/);

describe('useTaskResult', () => {
  it('is idle while the id is undefined', async () => {
    harness = createHarness({ timeScale: 1 });
    const { result } = renderHook(() => useTaskResult('render-video', undefined), {
      wrapper: harness.wrapper,
    });
    await advance(5000);
    expect(result.current.fetchStatus).toBe('idle');
    expect(gets()).toBe(0);
  });

  it('polls until COMPLETED and then never again', async () => {
    harness = createHarness({ timeScale: 1 });
    const id = await submitRender();
    const { result } = renderHook(() => useTaskResult('render-video', id), {
      wrapper: harness.wrapper,
    });
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
    harness = createHarness({ timeScale: 1 });
    const times: number[] = [];
    const hints: number[] = [];
    const inner = harness.transport;
    harness.transport = async (request) => {
      const response = await inner(request);
      if (request.method === 'GET') {
        times.push(Date.now());
        hints.push(Number(response.headers.get('retry-after') ?? 0) * 1000);
      }
      return response;
    };
    const id = await submitRender(20, 1000);
    renderHook(() => useTaskResult('render-video', id), { wrapper: harness.wrapper });
    await advance(30_000, 250);
    expect(times.length).toBeGreaterThanOrEqual(3);
    for (let index = 1; index < times.length; index += 1) {
      const gap = (times[index] ?? 0) - (times[index - 1] ?? 0);
      expect(gap).toBeGreaterThanOrEqual(Math.max(1000, hints[index - 1] ?? 0));
    }
  });

  it('makes the same requests for five watchers, mounted at different times, as for one', async () => {
    const pollsWith = async (watchers: number) => {
      harness = createHarness({ timeScale: 1 });
      const id = await submitRender();
      function Watcher() {
        const { data } = useTaskResult('render-video', id);
        return <span>{data?.progress.percent ?? '-'}</span>;
      }
      function Page({ count }: { count: number }) {
        return (
          <>
            {Array.from({ length: count }, (_, index) => (
              <Watcher key={index} />
            ))}
          </>
        );
      }
      const view = render(<Page count={1} />, { wrapper: harness.wrapper });
      for (let count = 2; count <= watchers; count += 1) {
        await advance(300);
        view.rerender(<Page count={count} />);
      }
      await advance(15_000 - (watchers - 1) * 300);
      const polls = gets();
      view.unmount();
      await harness.close();
      return polls;
    };
    const one = await pollsWith(1);
    const five = await pollsWith(5);
    harness = createHarness();
    expect(Math.abs(five - one)).toBeLessThanOrEqual(1);
  });

  it('fetches nothing after unmount', async () => {
    harness = createHarness({ timeScale: 1 });
    const id = await submitRender(20, 1000);
    const view = renderHook(() => useTaskResult('render-video', id), { wrapper: harness.wrapper });
    await advance(3000);
    view.unmount();
    const polls = gets();
    await advance(30_000, 1000);
    expect(gets()).toBe(polls);
  });

  it('pauses while the tab is hidden and refreshes at once when it shows again', async () => {
    harness = createHarness({ timeScale: 1 });
    const id = await submitRender(60, 1000);
    renderHook(() => useTaskResult('render-video', id), { wrapper: harness.wrapper });
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
    harness = createHarness({ timeScale: 1 });
    const id = await submitRender(6, 500);
    const seen: string[] = [];
    renderHook(
      () => useTaskResult('render-video', id, { onEvent: (event) => seen.push(event.id) }),
      {
        wrapper: harness.wrapper,
      },
    );
    await advance(10_000);
    const record = await harness.client.getResult('render-video', id);
    // Six frame events and one thumbnail event, each once, in the service's order.
    expect(record.events).toHaveLength(7);
    expect(seen).toEqual(record.events.map((event) => event.id));
  });

  it('backs off while the service fails, then resumes', async () => {
    harness = createHarness({ timeScale: 1 });
    const id = await submitRender(30, 1000);
    let failing = true;
    const inner = harness.transport;
    const failedAt: number[] = [];
    harness.transport = async (request) => {
      if (failing && request.method === 'GET') {
        failedAt.push(Date.now());
        return new Response(
          JSON.stringify({
            status: 'error',
            statusCode: 503,
            reason: 'INTERNAL',
            message: 'Busy.',
          }),
          { status: 503, headers: { 'content-type': 'application/json' } },
        );
      }
      return inner(request);
    };
    // Read in render what the test reads: TanStack Query re-renders only for properties a render used.
    const { result } = renderHook(
      () => {
        const { data, error } = useTaskResult('render-video', id, { polling: { random: () => 1 } });
        return { data, error };
      },
      { wrapper: harness.wrapper },
    );
    await advance(20_000, 250);
    expect(result.current.error?.status).toBe(503);
    // Gaps of 2 s, 4 s, 8 s… with the jitter at its maximum.
    const gaps = failedAt.slice(1).map((time, index) => time - (failedAt[index] ?? 0));
    expect(gaps.slice(0, 3)).toEqual([2000, 4000, 8000]);
    failing = false;
    await advance(40_000, 500);
    expect(result.current.data?.status).toBe('COMPLETED');
  });

  it('stops polling at a 404 that will not heal', async () => {
    harness = createHarness({ timeScale: 1 });
    const { result } = renderHook(
      () => {
        const { error } = useTaskResult('render-video', 'no-such-task');
        return { error };
      },
      { wrapper: harness.wrapper },
    );
    await advance(10_000, 500);
    expect(result.current.error?.reason).toBe('RESULT_NOT_FOUND');
    expect(gets()).toBe(1);
  });

  it('refreshes the tokens once after a 401 and goes on', async () => {
    harness = createHarness({ timeScale: 1 });
    const id = await submitRender(2, 500);
    let token = 'expired-token';
    let refreshes = 0;
    const client = createTaskClient({
      baseUrl: 'http://taskwire.test',
      userToken: () => token,
      clientToken: DEMO_CLIENT_TOKEN,
      fetch: (request) => {
        harness.requests.push(`${request.method} ${new URL(request.url).pathname}`);
        return harness.service.fetch(request);
      },
      onUnauthorized: () => {
        refreshes += 1;
        token = DEMO_USER_TOKEN;
      },
    });
    const { QueryClient, QueryClientProvider } = await import('@tanstack/react-query');
    const { TaskwireProvider } = await import('../../src/react/index.js');
    const queryClient = new QueryClient();
    const { result } = renderHook(() => useTaskResult('render-video', id), {
      wrapper: ({ children }) => (
        <QueryClientProvider client={queryClient}>
          <TaskwireProvider client={client}>{children}</TaskwireProvider>
        </QueryClientProvider>
      ),
    });
    await advance(5000);
    expect(result.current.data?.status).toBe('COMPLETED');
    expect(refreshes).toBe(1);
    queryClient.clear();
  });
});
