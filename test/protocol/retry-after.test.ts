import { describe, expect, it } from 'vitest';
import { clampDelay, MAX_RETRY_AFTER_MS, parseRetryAfter } from '../../src/protocol/retry-after.js';

describe('parseRetryAfter', () => {
  const now = Date.UTC(2026, 10, 21, 12, 0, 0);

  it('reads whole seconds', () => {
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter(' 120 ', now)).toBe(120_000);
  });

  it('reads an HTTP date as the time left until it', () => {
    expect(parseRetryAfter('Sat, 21 Nov 2026 12:00:30 GMT', now)).toBe(30_000);
  });

  it('reads a date in the past as 0', () => {
    expect(parseRetryAfter('Sat, 21 Nov 2026 11:00:00 GMT', now)).toBe(0);
  });

  it('ignores an absent, empty, negative, fractional or unreadable value', () => {
    for (const value of [null, undefined, '', '-5', '1.5', 'soon', '1e3']) {
      expect(parseRetryAfter(value, now), String(value)).toBeUndefined();
    }
  });
});

describe('parseRetryAfter bounds', () => {
  const now = Date.UTC(2026, 10, 21, 12, 0, 0);

  it('holds seconds and dates to five minutes, so no timer overflows', () => {
    expect(parseRetryAfter('3000000', now)).toBe(MAX_RETRY_AFTER_MS);
    expect(parseRetryAfter('Fri, 31 Dec 9999 23:59:59 GMT', now)).toBe(MAX_RETRY_AFTER_MS);
    expect(parseRetryAfter('299', now)).toBe(299_000);
  });
});

describe('clampDelay', () => {
  it('keeps a delay within what a timer takes', () => {
    expect(clampDelay(2 ** 40)).toBe(2 ** 31 - 1);
    expect(clampDelay(Number.NaN)).toBe(0);
    expect(clampDelay(-5)).toBe(0);
    expect(clampDelay(Infinity, 1000)).toBe(1000);
  });
});
