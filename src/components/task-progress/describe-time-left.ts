/**
 * Humane "time left" wording, framework-free: a figure rounded to what a person can use ("about
 * 20 s left", "less than a minute left", "about 3 min left") in a short form for the screen and a
 * long form for `aria-valuetext` ("about 20 seconds left"), in the words of `TimeLeftMessages`.
 */
import { formatNumber, type Locale } from '../format.js';
import { timeLeftMessages, type TimeLeftMessages } from './time-left-messages.js';

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
 * 90 minutes whole minutes; beyond, hours to the half. Figures go through `Intl.NumberFormat` in
 * `locale`; the words are `messages` (English by default).
 */
export function describeTimeLeft(
  seconds: number | null | undefined,
  locale: Locale,
  messages: TimeLeftMessages = timeLeftMessages,
): TimeLeftText | undefined {
  if (seconds == null || !Number.isFinite(seconds) || seconds <= 0) return undefined;
  const both = (text: string) => ({ short: text, long: text });
  if (seconds < 10) return both(messages.fewSeconds);
  if (seconds < 45) {
    const rounded = Math.max(10, Math.round(seconds / 5) * 5);
    const figure = formatNumber(rounded, locale);
    return {
      short: messages.secondsShort(rounded, figure),
      long: messages.secondsLong(rounded, figure),
    };
  }
  if (seconds < 60) return both(messages.underAMinute);
  if (seconds < 90 * 60) {
    const minutes = Math.max(1, Math.round(seconds / 60));
    const figure = formatNumber(minutes, locale);
    return {
      short: messages.minutesShort(minutes, figure),
      long: messages.minutesLong(minutes, figure),
    };
  }
  const hours = Math.round((seconds / 3600) * 2) / 2;
  const figure = formatNumber(hours, locale, { maximumFractionDigits: 1 });
  return { short: messages.hoursShort(hours, figure), long: messages.hoursLong(hours, figure) };
}
