/**
 * The tests' one fake clock: vitest's fake timers, and the two ways a test moves them while an
 * in-process service answers. Tests count in simulated time and wait for the event that would
 * come, never for a window of wall-clock time.
 * - On {@link fakeTimersAndClock} (the timers and the clock only, `setImmediate` left real):
 *   {@link step} and {@link until} move the clock in steps and, after each, let a few real turns
 *   pass, so the service's answers, channel messages and React's renders come through;
 *   {@link stepFor} lets a stretch of time pass in such steps; {@link advanceClock} is the step of
 *   a test without React (the Vue composables').
 * - On every fake timer (`vi.useFakeTimers()`, `setImmediate` faked too): {@link advanceUntil} and
 *   {@link settleOnFakeClock} over {@link trackRequests} move the clock only while no request is in
 *   the service's hands, never past an answer that has not come yet, since some of the service's
 *   work is real (the idempotency store's digest runs on `crypto.subtle`).
 */
import { vi } from 'vitest';
import type { FetchService } from '../../src/testing/index.js';

/**
 * Fakes the timers and the clock only (`setTimeout`, `setInterval`, `Date`), for a `beforeEach`:
 * all the reference service's time is made of (task sleeps, keep-alive ticks, the Execute limit,
 * its `now`, read when it is created). `setImmediate`, promises, streams and `crypto.subtle` stay
 * real, so the in-process service's answers, channel messages and the turns of {@link step} still
 * come through.
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

/**
 * Advances the simulated clock by `ms` inside React's `act`, letting answers, messages and renders
 * through: the step of a hook test.
 */
export async function step(ms: number): Promise<void> {
  // Loaded here, not at the top: the Vue and Node tests that share this module never load React.
  const { act } = await import('@testing-library/react');
  await act(() => advanceClock(ms));
}

/** How {@link until} and {@link stepFor} move the clock: {@link step} (React), or {@link advanceClock}. */
type Advance = (ms: number) => Promise<void>;

/**
 * Steps the simulated clock `stepMs` at a time (default 10) until `check` holds (it returns
 * anything but `false` without throwing), and resolves to the simulated time that took; past
 * `limitMs` (default 10 000) it fails with the check's last error. `advance` moves the clock
 * ({@link step} by default; {@link advanceClock} in a test without React).
 */
export async function until(
  check: () => unknown,
  {
    stepMs = 10,
    limitMs = 10_000,
    advance = step,
  }: { stepMs?: number; limitMs?: number; advance?: Advance } = {},
): Promise<number> {
  for (let waited = 0; ; waited += stepMs) {
    let failure: unknown = new Error(`not within ${String(limitMs)} ms of simulated time`);
    try {
      if ((await check()) !== false) return waited;
    } catch (error) {
      failure = error;
    }
    if (waited >= limitMs) throw failure;
    await advance(stepMs);
  }
}

/**
 * Steps the simulated clock `stepMs` at a time (default 100) for `ms` in all, so that each timer
 * coming due sets off its work (a poll, an answer, a render) before the next: how a test lets the
 * time pass in which an event would have come, before it checks that none did.
 */
export async function stepFor(
  ms: number,
  { stepMs = 100, advance = step }: { stepMs?: number; advance?: Advance } = {},
): Promise<void> {
  for (let waited = 0; waited < ms; waited += stepMs) await advance(Math.min(stepMs, ms - waited));
}

/** A service's `fetch` that knows which of its calls are in flight. */
export interface TrackedService {
  /** The service's `fetch`. */
  fetch(request: Request): Promise<Response>;
  /** A promise that settles when one of the calls in flight does, or `undefined` when none is. */
  inFlight(): Promise<void> | undefined;
}

/** Tracks the calls of `service.fetch` from the call until its answer (or its failure). */
export function trackRequests(service: FetchService): TrackedService {
  const pending = new Set<Promise<unknown>>();
  const ignore = () => undefined;
  return {
    fetch(request) {
      const answer = service.fetch(request);
      pending.add(answer);
      void answer.then(
        () => pending.delete(answer),
        () => pending.delete(answer),
      );
      return answer;
    },
    inFlight: () =>
      pending.size === 0 ? undefined : Promise.race([...pending]).then(ignore, ignore),
  };
}

/** How {@link advanceUntil} moves: its limit, its step, and what each step runs inside. */
export interface AdvanceOptions {
  /** The simulated time after which it fails (default 120 000 ms). */
  maxMs?: number;
  /** The step of the clock (default 50 ms). */
  stepMs?: number;
  /**
   * Runs each step (a wait for an answer, or a move of the clock): React's `act` in a hook test,
   * so that what the step sets off renders inside it. Defaults to running the step as it is.
   */
  around?: (step: () => Promise<void>) => Promise<unknown>;
}

/**
 * Advances the fake clock in steps of `stepMs` until `done()` holds, first letting every request in
 * the service's hands be answered; fails when the clock has moved `maxMs` without it.
 */
export async function advanceUntil(
  done: () => boolean,
  service: Pick<TrackedService, 'inFlight'>,
  what: string,
  { maxMs = 120_000, stepMs = 50, around = (step) => step() }: AdvanceOptions = {},
): Promise<void> {
  let elapsed = 0;
  while (!done()) {
    await around(async () => {
      const busy = service.inFlight();
      if (busy !== undefined) {
        await busy;
        // Let what the answer sets off (reading it, the next call) run before looking again.
        await vi.advanceTimersByTimeAsync(0);
        return;
      }
      if (elapsed >= maxMs) throw new Error(`Still waiting for ${what} after ${maxMs} ms.`);
      await vi.advanceTimersByTimeAsync(stepMs);
      elapsed += stepMs;
    });
  }
}

/** Settles `promise` on the fake clock with {@link advanceUntil}, and resolves to its value. */
export async function settleOnFakeClock<Value>(
  promise: Promise<Value>,
  service: Pick<TrackedService, 'inFlight'>,
  what: string,
  options?: AdvanceOptions,
): Promise<Value> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await advanceUntil(() => settled, service, what, options);
  return promise;
}
