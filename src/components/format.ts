/**
 * Number formatting shared by the components: every figure goes through `Intl.NumberFormat` with
 * the caller's locale (or the user's, when none is given). Formatters are cached, since building
 * one costs far more than using it and a progress bar formats on every event.
 */

/** A BCP 47 locale or a list of them, as `Intl.NumberFormat` takes it; `undefined` is the user's. */
export type Locale = string | readonly string[] | undefined;

const numberFormats = new Map<string, Intl.NumberFormat>();

function cacheKey(locale: Locale, options: object): string {
  return JSON.stringify([locale ?? null, options]);
}

/**
 * Formats `value` with `Intl.NumberFormat(locale, options)`. An unknown or malformed locale falls
 * back to the user's locale rather than throwing during a render.
 */
export function formatNumber(
  value: number,
  locale: Locale,
  options: Intl.NumberFormatOptions = {},
): string {
  const key = cacheKey(locale, options);
  let format = numberFormats.get(key);
  if (!format) {
    try {
      format = new Intl.NumberFormat(locale as string | string[] | undefined, options);
    } catch {
      format = new Intl.NumberFormat(undefined, options);
    }
    numberFormats.set(key, format);
  }
  return format.format(value);
}

/**
 * Credits as "12 credits", "1 credit", "0.5 credits" (at most two decimals). The words are English;
 * only the figure follows the locale.
 */
export function formatCredits(credits: number, locale: Locale): string {
  const figure = formatNumber(credits, locale, { maximumFractionDigits: 2 });
  return `${figure} ${credits === 1 ? 'credit' : 'credits'}`;
}
