/**
 * useTaskResult of taskwire/vue on fake timers (timers and the clock only, so the in-process
 * service's answers still come through), counted in simulated time, as test/react's are: the same
 * demo task at its full length, the requests recorded by `recordRequests`.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/vue-query';
import { ref } from 'vue';
import { useTaskResult } from '../../src/vue/index.js';
import { closeHookTestServices, hookTestService } from '../support/hook-test-service.js';
import { advanceClock, fakeTimersAndClock } from '../support/fake-clock.js';
import { mountComposable } from '../support/vue-page.js';

let setUp: ReturnType<typeof hookTestService>;
beforeEach(() => {
  fakeTimersAndClock();
});
afterEach(async () => {
  await closeHookTestServices();
  vi.useRealTimers();
});

/** Advances the fake clock by `ms` in steps of `stepMs`. */
async function advance(ms: number, stepMs = 100) {
  for (let elapsed = 0; elapsed < ms; elapsed += stepMs) await advanceClock(stepMs);
}

const gets = () => setUp.count('result');

describe('useTaskResult (Vue)', () => {
  it('is idle while the id is undefined, then follows the id its ref is given, until COMPLETED', async () => {
    setUp = hookTestService({ timeScale: 1 });
    const id = ref<string | undefined>();
    const page = mountComposable(() => useTaskResult('render-video', id), setUp.options);
    await advance(3000);
    expect(page.result.fetchStatus.value).toBe('idle');
    expect(gets()).toBe(0);
    id.value = (await page.client.submit('render-video', { frames: 10, frameMs: 500 })).id;
    await advance(12_000);
    expect(page.result.data.value?.status).toBe('COMPLETED');
    expect(page.result.data.value?.result).toMatchObject({ frames: 10 });
    const polls = gets();
    // About one poll a second over a five-second task, never a storm, and none once it ended.
    expect(polls).toBeGreaterThanOrEqual(3);
    expect(polls).toBeLessThanOrEqual(10);
    await advance(60_000, 1000);
    expect(gets()).toBe(polls);
  });

  it('makes the same requests for five watchers, mounted at different times, as for one', async () => {
    const pollsWith = async (watchers: number) => {
      setUp = hookTestService({ timeScale: 1 });
      // One app's QueryClient; each watcher a component of its own, mounted 300 ms after the last.
      const queryClient = new QueryClient();
      const page = { ...setUp.options, queryClient };
      const first = mountComposable(() => useTaskResult('render-video', undefined), page);
      const { id } = await first.client.submit('render-video', { frames: 10, frameMs: 500 });
      const mounted = [];
      for (let count = 1; count <= watchers; count += 1) {
        mounted.push(mountComposable(() => useTaskResult('render-video', id), page));
        if (count < watchers) await advance(300);
      }
      await advance(15_000 - (watchers - 1) * 300);
      const polls = gets();
      for (const watcher of mounted) watcher.wrapper.unmount();
      await setUp.service.close();
      return polls;
    };
    const one = await pollsWith(1);
    const five = await pollsWith(5);
    expect(one).toBeGreaterThanOrEqual(3);
    expect(Math.abs(five - one)).toBeLessThanOrEqual(1);
  });

  it('fetches nothing after unmount', async () => {
    setUp = hookTestService({ timeScale: 1 });
    const id = ref<string | undefined>();
    const page = mountComposable(() => useTaskResult('render-video', id), setUp.options);
    id.value = (await page.client.submit('render-video', { frames: 20, frameMs: 1000 })).id;
    await advance(3000);
    page.wrapper.unmount();
    const polls = gets();
    expect(polls).toBeGreaterThan(0);
    await advance(30_000, 1000);
    expect(gets()).toBe(polls);
  });

  it('reports each custom event once, by id', async () => {
    setUp = hookTestService({ timeScale: 1 });
    const seen: string[] = [];
    const id = ref<string | undefined>();
    const page = mountComposable(
      () => useTaskResult('render-video', id, { onEvent: (event) => seen.push(event.id) }),
      setUp.options,
    );
    id.value = (await page.client.submit('render-video', { frames: 6, frameMs: 500 })).id;
    await advance(10_000);
    const record = await page.client.getResult('render-video', id.value);
    // Six frame events and one thumbnail event, each once, in the service's order.
    expect(record.events).toHaveLength(7);
    expect(seen).toEqual(record.events.map((event) => event.id));
  });
});
