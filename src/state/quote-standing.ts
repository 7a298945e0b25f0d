/**
 * Which params the quote on screen is for (docs/protocol.md, "The hooks", on the quote), for every
 * binding's `useTaskOptions`: the query keeps the previous quote while the next loads
 * (`isPlaceholderData`) without saying whose params it was for, so the hook remembers its last quote
 * of its own (each answer is an object of its own, so the object says which quote it is).
 */
import { canonicalJson } from '../protocol/canonical-json.js';
import type { OptionsResult } from '../protocol/start-answers.js';

/** What the hook shows now. */
export interface QuoteShown {
  /** The query's data: a quote, maybe a placeholder. */
  data: OptionsResult | undefined;
  /** Whether `data` is the previous query's quote, kept while this one loads. */
  isPlaceholderData: boolean;
  /** The params of the query's key (the debounced ones). */
  keyParams: unknown;
  /** The params the hook was given last. */
  params: unknown;
}

/** What the hook says of its quote. */
export interface QuoteStanding<Params> {
  /** The params `data` is the quote for; `undefined` while there is no quote or they are unknown. */
  quotedParams: Params | undefined;
  /** Whether `data` is a quote for other params than `params` (compared by content). */
  isQuoteStale: boolean;
}

/**
 * Says which params the quote shown is for, and whether it is stale, remembering in the function
 * itself the hook's last quote of its own: one per hook, made once (React's `useState`, Vue's setup).
 * What it remembers is a fact (that quote answered those params), so a call whose render is thrown
 * away may add to it.
 */
export function rememberingQuoteStanding<Params>(): (shown: QuoteShown) => QuoteStanding<Params> {
  let lastOwn: { quote: OptionsResult; params: unknown } | undefined;
  return ({ data, isPlaceholderData, keyParams, params }) => {
    if (data !== undefined && !isPlaceholderData && lastOwn?.quote !== data)
      lastOwn = { quote: data, params: keyParams };
    // A placeholder is the quote of the hook's own last query, or of another's: then unknown.
    const quoted = lastOwn?.quote === data ? lastOwn : undefined;
    // A quote whose params are unknown counts as stale: it may be the price of anything.
    const isQuoteStale =
      data !== undefined &&
      (quoted === undefined || canonicalJson(quoted.params) !== canonicalJson(params));
    return { quotedParams: quoted?.params as Params | undefined, isQuoteStale };
  };
}
