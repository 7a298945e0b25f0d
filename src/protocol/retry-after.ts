/**
 * Reads the `Retry-After` header (RFC 9110, section 10.2.3), which a service sends either as a
 * number of seconds or as an HTTP date.
 */

/** Whole seconds, as the header's delay-seconds form allows nothing else. */
const DELAY_SECONDS = /^\d+$/;

/**
 * The delay a `Retry-After` value asks for, in milliseconds, or `undefined` when the header is absent
 * or unreadable. A date in the past is a delay of `0`.
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
  if (DELAY_SECONDS.test(trimmed)) return Number(trimmed) * 1000;
  // Only a date-like value goes to Date.parse, which otherwise reads strings such as "1.5" as years.
  if (!/[a-z]/i.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
