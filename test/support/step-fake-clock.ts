/**
 * Hook tests on fake timers (`vi.useFakeTimers` with `setImmediate` left real): the simulated clock
 * moves in steps, and after each step a few real turns let the in-process service's answers,
 * channel messages and React's renders through. Tests count in simulated time, never in a
 * wall-clock window.
 */
import { act } from '@testing-library/react';
import { vi } from 'vitest';

/**
 * Fakes the timers and the clock only (`setTimeout`, `setInterval`, `Date`), for a `beforeEach`:
 * `setImmediate` stays real, so the in-process service's answers, channel messages and the turns
 * of {@link step} still come through.
 */
export function fakeTimersAndClock(): void {
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
  });
}

/**
 * Advances the simulated clock by `ms` and lets a few real turns pass, so that the answers and
 * messages it set off come through: the step of a test without React (the Vue composables').
 */
export async function advanceClock(ms: number): Promise<void> {
  await vi.advanceTimersByTimeAsync(ms);
  for (let turn = 0; turn < 5; turn += 1) await new Promise((resolve) => setImmediate(resolve));
}

/** Advances the simulated clock by `ms`, letting answers, messages and renders through. */
export async function step(ms: number): Promise<void> {
  await act(() => advanceClock(ms));
}

/**
 * Steps the simulated clock `stepMs` at a time (default 10) until `check` holds (it returns
 * anything but `false` without throwing), and resolves to the simulated time that took; past
 * `limitMs` (default 10 000) it fails with the check's last error.
 */
export async function until(
  check: () => unknown,
  { stepMs = 10, limitMs = 10_000 }: { stepMs?: number; limitMs?: number } = {},
): Promise<number> {
  for (let waited = 0; ; waited += stepMs) {
    let failure: unknown = new Error(`not within ${String(limitMs)} ms of simulated time`);
    try {
      if ((await check()) !== false) return waited;
    } catch (error) {
      failure = error;
    }
    if (waited >= limitMs) throw failure;
    await step(stepMs);
  }
}
