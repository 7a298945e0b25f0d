/**
 * Which params the quote on screen is for (docs/protocol.md, "The hooks", on the quote), for every
 * binding's `useTaskOptions`: the query keeps the previous quote while the next loads
 * (`isPlaceholderData`) without saying whose params it was for, so the hook remembers its last quote
 * of its own (each answer is an object of its own, so the object says which quote it is).
 */
import { canonicalJson } from '../protocol/canonical-json.js';
import type { OptionsResult } from '../protocol/start-answers.js';

/** A quote of the hook's own query, and the params it was asked for. */
export interface OwnQuote {
  /** The quote. */
  quote: OptionsResult;
  /** The params it was asked for. */
  params: unknown;
}

/** What the hook shows now and what it remembers. */
export interface QuoteStandingInput {
  /** The query's data: a quote, maybe a placeholder. */
  data: OptionsResult | undefined;
  /** Whether `data` is the previous query's quote, kept while this one loads. */
  isPlaceholderData: boolean;
  /** The params of the query's key (the debounced ones). */
  keyParams: unknown;
  /** The params the hook was given last. */
  params: unknown;
  /** The hook's last quote of its own, if any. */
  lastOwn: OwnQuote | undefined;
}

/** What the hook says of its quote. */
export interface QuoteStanding {
  /** `data` as the query's own quote, for the hook to remember; `undefined` for a placeholder. */
  own: OwnQuote | undefined;
  /** The params `data` is the quote for; `undefined` while there is no quote or they are unknown. */
  quotedParams: unknown;
  /** Whether `data` is a quote for other params than `params` (compared by content). */
  isQuoteStale: boolean;
}

/** Which params `data` is the quote for, and whether that quote is stale. */
export function quoteStanding({
  data,
  isPlaceholderData,
  keyParams,
  params,
  lastOwn,
}: QuoteStandingInput): QuoteStanding {
  const own =
    data !== undefined && !isPlaceholderData ? { quote: data, params: keyParams } : undefined;
  const quoted = own ?? (isPlaceholderData && lastOwn?.quote === data ? lastOwn : undefined);
  // A quote whose params are unknown counts as stale: it may be the price of anything.
  const isQuoteStale =
    data !== undefined &&
    (quoted === undefined || canonicalJson(quoted.params) !== canonicalJson(params));
  return { own, quotedParams: quoted?.params, isQuoteStale };
}

/**
 * {@link quoteStanding} with the hook's last quote of its own kept in the function itself, for a
 * binding whose hook runs once (Vue's setup) rather than at every render.
 */
export function rememberingQuoteStanding<Params>(): (
  input: Omit<QuoteStandingInput, 'lastOwn'>,
) => QuoteStanding & { quotedParams: Params | undefined } {
  let lastOwn: OwnQuote | undefined;
  return (input) => {
    const standing = quoteStanding({ ...input, lastOwn });
    if (standing.own && lastOwn?.quote !== input.data) lastOwn = standing.own;
    return standing as QuoteStanding & { quotedParams: Params | undefined };
  };
}
