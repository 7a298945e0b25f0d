/**
 * Driving a test on fake timers while an in-process service answers: some of its work is real (the
 * idempotency store's digest runs on `crypto.subtle`), so the clock is advanced only while no
 * request is in the service's hands, never past an answer that has not come yet. The test waits for
 * events, not for a window of time.
 */
import { vi } from 'vitest';
import type { FetchService } from '../../src/testing/index.js';

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
