import { afterEach, describe, expect, it } from 'vitest';
import { randomUuid } from '../../src/protocol/random-uuid.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

afterEach(() => {
  delete (crypto as { randomUUID?: unknown }).randomUUID;
});

describe('randomUuid', () => {
  it('makes version 4 UUIDs, all different, without crypto.randomUUID', () => {
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
    const made = Array.from({ length: 1000 }, randomUuid);
    for (const id of made) expect(id).toMatch(UUID_V4);
    expect(new Set(made).size).toBe(made.length);
  });
});
