/**
 * The naming rules of the wire (docs/protocol.md, "Paths and names"): here the task id's rule, which
 * every id the client is given or answered with keeps, and the stricter one of the server proxy.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { isOpaqueTaskId, isTaskId } from '../../src/protocol/names.js';
import { taskIdSchema } from '../../src/protocol/records.js';

describe('isTaskId', () => {
  it('takes a string of 1 to 256 characters that is not a path step, as taskIdSchema does', () => {
    for (const id of ['a', 'i'.repeat(256), 'a/b', '...', '.a', 'a.', 'a b']) {
      expect(isTaskId(id)).toBe(true);
      expect(z.safeParse(taskIdSchema, id).success).toBe(true);
    }
    for (const id of ['', 'i'.repeat(257), '.', '..', 42, undefined]) {
      expect(isTaskId(id)).toBe(false);
      expect(z.safeParse(taskIdSchema, id).success).toBe(false);
    }
  });
});

describe('isOpaqueTaskId', () => {
  it('takes ids of any characters but delimiters, escapes, whitespace and controls', () => {
    for (const id of [
      'a',
      'i'.repeat(256),
      '0f8e9c1d-5b6a-4c3d-9e8f-7a6b5c4d3e2f',
      "é:~!*'()@$,;=+",
      '...',
    ]) {
      expect(isOpaqueTaskId(id)).toBe(true);
    }
  });

  it('refuses what a hop behind the proxy could read as a path, a query, or an escape', () => {
    const refused = [
      ...['/', '\\', '?', '#', '%'].map((character) => `a${character}b`),
      ...[' ', '\t', '\n', '\r', '\u00A0', '\u2028', '\u3000'].map((space) => `a${space}b`),
      ...['\u0000', '\u001B', '\u007F', '\u0085', '\u009B'].map((control) => `a${control}b`),
      '.',
      '..',
      '',
      'i'.repeat(257),
    ];
    for (const id of refused) {
      expect([id, isOpaqueTaskId(id)]).toEqual([id, false]);
    }
  });
});
