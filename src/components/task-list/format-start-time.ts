import { dateTimeFormat, type Locale } from '../format.js';

/**
 * When a task started, as `Intl.DateTimeFormat` writes it in `locale`: the time alone for a task of
 * today ("14:05", "2:05 PM"), with the date for an older one (`today` says which, for the words
 * around it); and the ISO form for `<time>`. An
 * absolute time rather than "2 minutes ago", which would go stale without a timer and differ between
 * the server's HTML and the first render in the browser.
 */
export function formatStartTime(
  startedAt: number,
  locale: Locale,
  now: number = Date.now(),
): { text: string; iso: string; today: boolean } {
  const date = new Date(startedAt);
  if (Number.isNaN(date.getTime())) return { text: '', iso: '', today: false };
  const today = new Date(now).toDateString() === date.toDateString();
  const options: Intl.DateTimeFormatOptions = today
    ? { timeStyle: 'short' }
    : { dateStyle: 'medium', timeStyle: 'short' };
  return { text: dateTimeFormat(locale, options).format(date), iso: date.toISOString(), today };
}
