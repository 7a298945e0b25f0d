/**
 * A fresh reference service per test, closed when that test ends (passed or failed), so that no
 * task, timer or open stream of one test outlives it into the next.
 */
import { onTestFinished, vi } from 'vitest';
import {
  createReferenceService,
  type ReferenceService,
  type ReferenceServiceConfig,
} from '../../src/reference/index.js';
import { fakeTimersAndClock } from '../support/fake-clock.js';

/** Creates a reference service with `config` and closes it when the current test finishes. */
export function openService(config?: ReferenceServiceConfig): ReferenceService {
  const service = createReferenceService(config);
  onTestFinished(() => service.close());
  return service;
}

/**
 * Like {@link openService}, on the fake clock: the test moves the service's time with
 * `vi.advanceTimersByTimeAsync` and counts what happened per simulated interval, instead of
 * sleeping and measuring a wall-clock window. Real timers come back when the test finishes.
 */
export function openServiceOnFakeClock(config?: ReferenceServiceConfig): ReferenceService {
  fakeTimersAndClock();
  onTestFinished(() => {
    vi.useRealTimers();
  });
  return openService(config);
}
