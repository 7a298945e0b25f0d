/**
 * How the reference service behind the live stories is configured, shared by `.storybook/main.ts`
 * (which mounts it on the dev server) and the stories (which size their params from it, and build
 * the same service in-process when there is no dev server).
 */

/** `demo` for people browsing the Storybook; `test` when the stories run as Vitest tests. */
export type LiveServiceMode = 'demo' | 'test';

/** The figures a live story needs to know about the service it talks to. */
export interface LiveServiceTiming {
  /** Multiplies every delay inside the demo tasks (`timeScale` of the service). */
  timeScale: number;
  /** The service's Execute limit, in real milliseconds (`limits.executeTimeoutMs`). */
  executeTimeoutMs: number;
}

/** Where the service is mounted on the dev server; the client's `baseUrl`. */
export const LIVE_SERVICE_PREFIX = '/taskwire';

/**
 * The timing of each mode. For people: tasks at 0.4 of their nominal length (render-video takes
 * about 1.2 s, watchable) and the real 20 s Execute limit, which slow-report exceeds when its
 * `seconds` come from {@link pastExecuteLimitSeconds}. For tests: ten times faster than nominal
 * and a 1 s Execute limit, so the 504 path costs about 2 s instead of 25 s.
 */
export function liveServiceTiming(mode: LiveServiceMode): LiveServiceTiming {
  switch (mode) {
    case 'demo':
      return { timeScale: 0.4, executeTimeoutMs: 20_000 };
    case 'test':
      return { timeScale: 0.1, executeTimeoutMs: 1_000 };
    default:
      return mode satisfies never;
  }
}

/** The `createReferenceService` config of a mode. */
export function liveServiceConfig(mode: LiveServiceMode) {
  const { timeScale, executeTimeoutMs } = liveServiceTiming(mode);
  return { timeScale, limits: { executeTimeoutMs } };
}

/**
 * Nominal `seconds` for slow-report so that, scaled, it runs a quarter past the Execute limit:
 * long enough to be answered with a 504, short enough to watch it finish afterwards.
 */
export function pastExecuteLimitSeconds(timing: LiveServiceTiming): number {
  return Math.ceil((timing.executeTimeoutMs * 1.25) / (1000 * timing.timeScale));
}
