'use client';
import { useEffect, useState } from 'react';
import { canonicalJson } from '../protocol/canonical-json.js';

/**
 * `value`, but a change shows only once it has held still for `delayMs`. Values equal by content
 * count as no change; the first defined value shows at once.
 */
export function useDebouncedValue<Value>(value: Value, delayMs: number): Value {
  const [settled, setSettled] = useState(value);
  const changed = canonicalJson(settled) !== canonicalJson(value);
  const immediate = settled === undefined && value !== undefined;
  if (changed && immediate) setSettled(value);
  useEffect(() => {
    if (!changed || immediate) return;
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [changed, immediate, value, delayMs]);
  return settled;
}
