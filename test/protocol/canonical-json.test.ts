import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/protocol/canonical-json.js';

describe('canonicalJson', () => {
  it('gives the same text for objects whose keys differ only in order, at any depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: null } })).toBe(
      canonicalJson({ a: { c: null, d: [2, { e: 0, f: 1 }] }, b: 1 }),
    );
  });

  it('keeps array order and tells different values apart', () => {
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
    expect(canonicalJson({ a: 1 })).not.toBe(canonicalJson({ a: '1' }));
  });
});

describe('canonicalJson with hostile keys', () => {
  it('keeps a __proto__ member as a member', () => {
    const parsed = JSON.parse('{"__proto__": {"x": 1}, "a": 2}') as unknown;
    expect(canonicalJson(parsed)).toBe('{"__proto__":{"x":1},"a":2}');
    expect(canonicalJson(parsed)).not.toBe(canonicalJson({ a: 2 }));
  });
});
