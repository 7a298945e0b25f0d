import { creditsAgree } from '../../protocol/usage.js';
import type { OptionsResult } from '../../protocol/start-answers.js';

/**
 * Whether a task priced at `quote` fits in `balance` credits: `true` when there is no balance to
 * respect, when no price is quoted (`{}` or no `credits`: nothing to exceed), or when its credits
 * are at most the balance; `false` when they exceed it, and also while `quote` is unknown
 * (`undefined`), so a submit button guarded by this stays disabled until the price is known.
 */
export function isWithinBudget(
  quote: OptionsResult | undefined,
  balance: number | undefined,
): boolean {
  if (balance === undefined) return true;
  if (quote === undefined) return false;
  const credits = quote.credits;
  if (credits === undefined) return true;
  return credits <= balance || creditsAgree(credits, balance);
}
