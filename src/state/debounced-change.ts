/**
 * The rule of a debounced value, for every binding's debounce (the params `useTaskOptions` prices):
 * a value equal by content to the one settled is no change, the first defined value settles at
 * once, and so does every change when the delay is 0 or less (no timer: a press's request leaves
 * in the press's own task); any other change settles once it has held still for the delay.
 */
import { canonicalJson } from '../protocol/canonical-json.js';

/** How `value` replaces the `settled` one: not at all, at once, or after the delay. */
export type DebouncedChange = 'none' | 'now' | 'after-delay';

/** How `value` replaces `settled` under the debounce's rule, with a delay of `delayMs`. */
export function debouncedChange(
  settled: unknown,
  value: unknown,
  delayMs: number,
): DebouncedChange {
  if (canonicalJson(settled) === canonicalJson(value)) return 'none';
  if (delayMs <= 0) return 'now';
  return settled === undefined && value !== undefined ? 'now' : 'after-delay';
}

/** A debounce that settles values through `apply` under the rule of {@link debouncedChange}. */
export interface Debounce<Value> {
  /** Settles `value` at once, after `delayMs`, or not at all; drops the one still waiting. */
  set(value: Value, delayMs: number): void;
  /** Drops the value still waiting, if any. */
  cancel(): void;
}

/**
 * Creates a {@link Debounce} whose settled value starts as `settled`, for a binding whose hook runs
 * once (Vue's setup) and keeps the settled value itself.
 */
export function createDebounce<Value>(
  settled: Value,
  apply: (value: Value) => void,
): Debounce<Value> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const settle = (value: Value) => {
    settled = value;
    apply(value);
  };
  const cancel = () => clearTimeout(timer);
  return {
    set(value, delayMs) {
      cancel();
      const change = debouncedChange(settled, value, delayMs);
      if (change === 'now') settle(value);
      else if (change === 'after-delay') timer = setTimeout(() => settle(value), delayMs);
    },
    cancel,
  };
}
