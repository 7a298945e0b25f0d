'use client';
import { useEffect, useState } from 'react';
import { debouncedChange } from '../state/debounced-change.js';

/**
 * `value`, but a change shows only once it has held still for `delayMs`. Values equal by content
 * count as no change; the first defined value shows at once.
 */
export function useDebouncedValue<Value>(value: Value, delayMs: number): Value {
  const [settled, setSettled] = useState(value);
  const change = debouncedChange(settled, value);
  if (change === 'now') setSettled(value);
  useEffect(() => {
    if (change !== 'after-delay') return;
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [change, value, delayMs]);
  return settled;
}
