/**
 * When to read a task's result again. Framework-free: the React layer feeds it the state of the
 * query and hands the answer to TanStack Query's `refetchInterval` and `staleTime`.
 */
import { TaskwireError } from '../client/errors.js';
import { isTerminalStatus, type TaskStatus } from '../protocol/records.js';
import { clampDelay, MAX_RETRY_AFTER_MS } from '../protocol/retry-after.js';

/** Settings of the polling schedule. */
export interface PollingPolicyOptions {
  /** The shortest delay between two polls, whatever the service hints. Defaults to `1000`. */
  minIntervalMs?: number;
  /** The longest delay between two polls while the task runs. Defaults to `10000`. */
  maxIntervalMs?: number;
  /** The longest delay after repeated errors. Defaults to `30000`. */
  maxBackoffMs?: number;
  /** Stop polling this long after the first poll; `undefined` polls until the task ends. */
  deadlineMs?: number;
  /** Source of randomness for the backoff jitter. Defaults to `Math.random`. */
  random?: () => number;
}

/** What the policy needs to know about the last poll. */
export interface PollState {
  /** The status of the last record read, if any. */
  status: TaskStatus | undefined;
  /** The last record's `progress.estimatedSecondsLeft`, if any. */
  estimatedSecondsLeft: number | undefined;
  /** The service's `Retry-After` hint of the last answer, in milliseconds. */
  retryAfterMs: number | undefined;
  /** How many polls in a row have failed. */
  errorCount: number;
  /** The last error, when the last poll failed. */
  error: unknown;
  /** When polling started (ms since epoch), for the deadline. */
  startedAt: number;
  /** The current time (ms since epoch). */
  now: number;
}

const defaults = { minIntervalMs: 1000, maxIntervalMs: 10_000, maxBackoffMs: 30_000 };

/**
 * Whether the page is hidden (a background tab): TanStack Query pauses polling then, unless told
 * otherwise. `false` where there is no document.
 */
export const isPageHidden = () =>
  typeof document !== 'undefined' && document.visibilityState === 'hidden';

/** Why polling stopped, or `undefined` while it goes on. */
export type PollStopReason = 'terminal' | 'fatal-error' | 'deadline';

/** Whether polling is over, and why. */
export function pollStopReason(
  state: PollState,
  options: PollingPolicyOptions = {},
): PollStopReason | undefined {
  if (state.status !== undefined && isTerminalStatus(state.status)) return 'terminal';
  if (state.errorCount > 0 && !(TaskwireError.isInstance(state.error) && state.error.retryable)) {
    // A 404, 410, 401 or a protocol error will not heal by asking again.
    return 'fatal-error';
  }
  if (options.deadlineMs !== undefined && state.now - state.startedAt >= options.deadlineMs)
    return 'deadline';
  return undefined;
}

/** The longest delay between two polls while the task runs: `maxIntervalMs`, never below the floor. */
export function slowestPollDelay(options: PollingPolicyOptions = {}): number {
  const minIntervalMs = options.minIntervalMs ?? defaults.minIntervalMs;
  return clampDelay(Math.max(minIntervalMs, options.maxIntervalMs ?? defaults.maxIntervalMs));
}

/**
 * The delay before the next poll in milliseconds, or `false` when polling is over.
 *
 * While the task runs, the delay is a quarter of its estimated time left (so polls come closer as the
 * end nears), within the floor and the ceiling. After errors it backs off exponentially with jitter.
 * The service's `Retry-After` is a lower bound, itself at most five minutes; the floor always holds,
 * and the result is never more than a timer takes (2^31 - 1 ms).
 */
export function nextPollDelay(
  state: PollState,
  options: PollingPolicyOptions = {},
): number | false {
  if (pollStopReason(state, options) !== undefined) return false;
  const minIntervalMs = options.minIntervalMs ?? defaults.minIntervalMs;
  const maxIntervalMs = slowestPollDelay(options);
  let delay: number;
  if (state.errorCount > 0) {
    const maxBackoffMs = Math.max(minIntervalMs, options.maxBackoffMs ?? defaults.maxBackoffMs);
    const ceiling = Math.min(maxBackoffMs, minIntervalMs * 2 ** state.errorCount);
    // "Equal jitter": half fixed, half random, so watchers of a failing service spread out.
    delay = ceiling / 2 + (options.random ?? Math.random)() * (ceiling / 2);
    const retryAfterMs = TaskwireError.isInstance(state.error)
      ? state.error.retryAfterMs
      : undefined;
    if (retryAfterMs !== undefined)
      delay = Math.max(delay, clampDelay(retryAfterMs, MAX_RETRY_AFTER_MS));
  } else {
    const estimateMs = (state.estimatedSecondsLeft ?? 0) * 1000;
    delay = Math.min(maxIntervalMs, estimateMs / 4);
    if (state.retryAfterMs !== undefined)
      delay = Math.max(delay, clampDelay(state.retryAfterMs, MAX_RETRY_AFTER_MS));
  }
  // The floor holds, and no delay overflows the timer it is handed to (a huge floor included).
  return clampDelay(Math.max(minIntervalMs, Math.round(delay)));
}
