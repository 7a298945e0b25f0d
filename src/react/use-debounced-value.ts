'use client';
import { useEffect, useState } from 'react';
import { debouncedChange } from '../state/debounced-change.js';

/**
 * `value`, but a change shows only once it has held still for `delayMs`. Values equal by content
 * count as no change; the first defined value shows at once, and with a `delayMs` of 0 or less
 * every change does, in the render that makes it (src/state/debounced-change.ts).
 */
export function useDebouncedValue<Value>(value: Value, delayMs: number): Value {
  const [settled, setSettled] = useState(value);
  const change = debouncedChange(settled, value, delayMs);
  if (change === 'now') setSettled(value);
  useEffect(() => {
    if (change !== 'after-delay') return;
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [change, value, delayMs]);
  return settled;
}
