/**
 * The rule of a debounced value, for every binding's debounce (the params `useTaskOptions` prices):
 * a value equal by content to the one settled is no change, the first defined value settles at
 * once, and any other change settles once it has held still for the delay.
 */
import { canonicalJson } from '../protocol/canonical-json.js';

/** How `value` replaces the `settled` one: not at all, at once, or after the delay. */
export type DebouncedChange = 'none' | 'now' | 'after-delay';

/** How `value` replaces `settled` under the debounce's rule. */
export function debouncedChange(settled: unknown, value: unknown): DebouncedChange {
  if (canonicalJson(settled) === canonicalJson(value)) return 'none';
  return settled === undefined && value !== undefined ? 'now' : 'after-delay';
}
