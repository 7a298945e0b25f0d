/**
 * Reads the `Retry-After` header (RFC 9110, section 10.2.3), which a service sends either as a
 * number of seconds or as an HTTP date. What a service asks for is bounded (docs/protocol.md,
 * "Get Result"): a delay from outside never reaches a timer unclamped.
 */

/** The longest delay a `Retry-After` may ask for: five minutes, in milliseconds. */
export const MAX_RETRY_AFTER_MS = 5 * 60 * 1000;

/**
 * The longest delay a timer takes: `setTimeout` keeps its delay in a signed 32-bit integer and
 * fires at once for anything longer.
 */
export const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/** Whole seconds, as the header's delay-seconds form allows nothing else. */
const DELAY_SECONDS = /^\d+$/;

/**
 * `ms` made safe for a timer: a finite number from `0` to `max` (which is itself capped at
 * {@link MAX_TIMER_DELAY_MS}); anything else (NaN, a negative number) is `0`.
 */
export function clampDelay(ms: number, max: number = MAX_TIMER_DELAY_MS): number {
  const ceiling = Math.min(max, MAX_TIMER_DELAY_MS);
  if (Number.isNaN(ms) || ms <= 0) return 0;
  return Math.min(ms, ceiling);
}

/**
 * The delay a `Retry-After` value asks for, in milliseconds, at most {@link MAX_RETRY_AFTER_MS}, or
 * `undefined` when the header is absent or unreadable. A date in the past is a delay of `0`.
 *
 * @param value The header's value, as `Headers.get` returns it.
 * @param now The current time in milliseconds since the epoch. Defaults to `Date.now()`.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  now = Date.now(),
): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  if (DELAY_SECONDS.test(trimmed)) return clampDelay(Number(trimmed) * 1000, MAX_RETRY_AFTER_MS);
  // Only a date-like value goes to Date.parse, which otherwise reads strings such as "1.5" as years.
  if (!/[a-z]/i.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return clampDelay(date - now, MAX_RETRY_AFTER_MS);
}

/**
 * The wait before retry number `attempt` (from 0) of a request that failed in a way that may heal:
 * the service's `Retry-After` when it sent one (clamped to {@link MAX_RETRY_AFTER_MS}), else
 * `firstMs` (1 s by default), doubled at each retry up to 10 s.
 */
export function retryDelay(
  attempt: number,
  retryAfterMs: number | undefined,
  firstMs = 1000,
): number {
  return retryAfterMs === undefined
    ? Math.min(10_000, firstMs * 2 ** attempt)
    : clampDelay(retryAfterMs, MAX_RETRY_AFTER_MS);
}
