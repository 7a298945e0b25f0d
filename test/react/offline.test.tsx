/**
 * Polling and the browser's connectivity: TanStack Query's onlineManager pauses a query's fetches
 * while the browser is offline and resumes them when it is back; the polling of useTaskResult
 * relies on it (docs/protocol.md, "The hooks"). On fake timers: counted in simulated time.
 */
import { onlineManager } from '@tanstack/react-query';
import { act } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useTaskResult } from '../../src/react/index.js';
import { renderHookWithTaskwire } from '../../src/testing/index.js';
import { closeHookTestServices, hookTestService } from '../support/hook-test-service.js';
import { fakeTimersAndClock, step, until } from '../support/fake-clock.js';

let setUp: ReturnType<typeof hookTestService>;
beforeEach(() => {
  fakeTimersAndClock();
});
afterEach(async () => {
  vi.useRealTimers();
  onlineManager.setOnline(true);
  await closeHookTestServices();
});

const gets = () => setUp.count('result');

describe('useTaskResult offline', () => {
  it('polls nothing while the browser is offline, and at once when it is back', async () => {
    setUp = hookTestService({ timeScale: 1 });
    // The hook gets the id its submit answered, as a screen does.
    const { result, client, rerender } = renderHookWithTaskwire(
      ({ id }: { id: string | undefined }) =>
        useTaskResult('render-video', id, { polling: { minIntervalMs: 20 } }),
      { ...setUp.options, initialProps: { id: undefined as string | undefined } },
    );
    const { id } = await client.submit('render-video', { frames: 40, frameMs: 100 });
    rerender({ id });
    await until(() => result.current.data?.status === 'IN_PROGRESS');
    act(() => onlineManager.setOnline(false));
    const before = gets();
    await step(2500);
    // A poll already in flight when the browser went offline may still land; no new one starts.
    expect(gets() - before).toBeLessThanOrEqual(1);
    const offline = gets();
    act(() => onlineManager.setOnline(true));
    const took = await until(() => gets() > offline);
    expect(took).toBeLessThan(500);
  });
});
