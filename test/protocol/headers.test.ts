/**
 * The header rules of the wire (docs/protocol.md, "Headers and tokens"), which the reference
 * service, the server proxy and the OpenAPI document all take from src/protocol/headers.ts.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  bearerToken,
  clientLabelSchema,
  idempotencyKeySchema,
  isBearerToken,
  isClientLabel,
  isIdempotencyKey,
} from '../../src/protocol/headers.js';

describe('bearerToken', () => {
  it('reads the token of `Bearer <token>`, the word in any case', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bearer  abc ')).toBe('abc');
    expect(bearerToken('BEARER a.b~c+/=')).toBe('a.b~c+/=');
  });

  it('finds no token in any other shape, nor one of characters a header cannot carry as they are', () => {
    for (const value of [null, '', 'abc', 'Bearer', 'Bearer ', 'Basic abc', 'Bearer a b']) {
      expect([value, bearerToken(value)]).toEqual([value, undefined]);
    }
    expect(bearerToken('Bearer tökén')).toBeUndefined();
    expect(isBearerToken('tökén')).toBe(false);
    expect(isBearerToken('')).toBe(false);
    expect(isBearerToken(42)).toBe(false);
  });
});

describe('isClientLabel', () => {
  it('takes 1 to 64 characters of [A-Za-z0-9._-], as its schema does', () => {
    for (const [value, taken] of [
      ['website', true],
      ['a'.repeat(64), true],
      ['', false],
      ['a'.repeat(65), false],
      ['web site', false],
      ['é', false],
    ] as const) {
      expect([value, isClientLabel(value)]).toEqual([value, taken]);
      expect([value, z.safeParse(clientLabelSchema, value).success]).toEqual([value, taken]);
    }
  });
});

describe('isIdempotencyKey', () => {
  it('takes 1 to 255 visible ASCII characters, as its schema does', () => {
    for (const [value, taken] of [
      ['!'.repeat(255), true],
      ['0f8e9c1d-5b6a-4c3d-9e8f-7a6b5c4d3e2f', true],
      ['', false],
      ['k'.repeat(256), false],
      ['has space', false],
      ['ké', false],
    ] as const) {
      expect([value, isIdempotencyKey(value)]).toEqual([value, taken]);
      expect([value, z.safeParse(idempotencyKeySchema, value).success]).toEqual([value, taken]);
    }
  });
});
