/**
 * Humane "time left" wording, framework-free: a figure rounded to what a person can use ("about
 * 20 s left", "less than a minute left", "about 3 min left") in a short form for the screen and a
 * long form for `aria-valuetext` ("about 20 seconds left").
 */
import { formatNumber, type Locale } from '../format.js';

/** The short (visible) and long (spoken) wording of a time left. */
export interface TimeLeftText {
  /** For the screen, such as "about 20 s left". */
  short: string;
  /** For screen readers, such as "about 20 seconds left". */
  long: string;
}

/**
 * Describes `seconds` left, or returns `undefined` when there is nothing worth saying (unknown,
 * zero or negative: services send `0` before they have an estimate). Under 10 s it says "a few
 * seconds left"; under 45 s "about N s" in steps of 5; under a minute "less than a minute"; under
 * 90 minutes whole minutes; beyond, hours to the half.
 */
export function describeTimeLeft(
  seconds: number | null | undefined,
  locale: Locale,
): TimeLeftText | undefined {
  if (seconds == null || !Number.isFinite(seconds) || seconds <= 0) return undefined;
  if (seconds < 10) return { short: 'a few seconds left', long: 'a few seconds left' };
  if (seconds < 45) {
    const figure = formatNumber(Math.max(10, Math.round(seconds / 5) * 5), locale);
    return { short: `about ${figure} s left`, long: `about ${figure} seconds left` };
  }
  if (seconds < 60) {
    return { short: 'less than a minute left', long: 'less than a minute left' };
  }
  if (seconds < 90 * 60) {
    const minutes = Math.max(1, Math.round(seconds / 60));
    const figure = formatNumber(minutes, locale);
    return {
      short: `about ${figure} min left`,
      long: `about ${figure} ${minutes === 1 ? 'minute' : 'minutes'} left`,
    };
  }
  const hours = Math.round((seconds / 3600) * 2) / 2;
  const figure = formatNumber(hours, locale, { maximumFractionDigits: 1 });
  return {
    short: `about ${figure} h left`,
    long: `about ${figure} ${hours === 1 ? 'hour' : 'hours'} left`,
  };
}
