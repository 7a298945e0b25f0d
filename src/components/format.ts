/**
 * Number formatting shared by the components: every figure goes through `Intl.NumberFormat` with
 * the caller's locale (or the user's, when none is given). Formatters are cached, since building
 * one costs far more than using it and a progress bar formats on every event.
 */
import type { CreditMessages } from './messages/credit-messages.js';

/** A BCP 47 locale or a list of them, as `Intl.NumberFormat` takes it; `undefined` is the user's. */
export type Locale = string | readonly string[] | undefined;

/**
 * A cache of one kind of `Intl` formatter by locale and options. An unknown or malformed locale
 * falls back to the user's locale rather than throwing during a render.
 */
function cachedFormatter<Format, Options extends object>(
  make: (locale: string | string[] | undefined, options: Options) => Format,
): (locale: Locale, options: Options) => Format {
  const formats = new Map<string, Format>();
  return (locale, options) => {
    const key = JSON.stringify([locale ?? null, options]);
    let format = formats.get(key);
    if (!format) {
      try {
        format = make(locale as string | string[] | undefined, options);
      } catch {
        format = make(undefined, options);
      }
      formats.set(key, format);
    }
    return format;
  };
}

const numberFormat = /* @__PURE__ */ cachedFormatter(
  (locale, options: Intl.NumberFormatOptions) => new Intl.NumberFormat(locale, options),
);

/** A cached `Intl.DateTimeFormat(locale, options)`, the user's locale when `locale` is refused. */
export const dateTimeFormat = /* @__PURE__ */ cachedFormatter(
  (locale, options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(locale, options),
);

/** Formats `value` with `Intl.NumberFormat(locale, options)`. */
export function formatNumber(
  value: number,
  locale: Locale,
  options: Intl.NumberFormatOptions = {},
): string {
  return numberFormat(locale, options).format(value);
}

/**
 * Credits as `messages` word them ("12 credits", "1 credit", "0.5 credits" in English), the figure
 * (at most two decimals) formatted in `locale`.
 */
export function formatCredits(credits: number, locale: Locale, messages: CreditMessages): string {
  return messages.credits(credits, formatNumber(credits, locale, { maximumFractionDigits: 2 }));
}
