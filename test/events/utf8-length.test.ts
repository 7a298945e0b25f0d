import { describe, expect, it } from 'vitest';
import { utf8Length } from '../../src/events/event-log.js';

describe('utf8Length', () => {
  it('counts the bytes UTF-8 takes, for ASCII and for every longer encoding', () => {
    for (const text of [
      '',
      '{"type":"task.progress","percent":12.5}',
      '{"title":"Grüße"}',
      '{"title":"日本語"}',
      '{"emoji":"🎬 and 🎞"}',
      'a\u007fb\u0080c\u07ffd\u0800e\uffff',
    ]) {
      expect(utf8Length(text), text).toBe(new TextEncoder().encode(text).length);
    }
  });
});
