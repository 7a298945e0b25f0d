/**
 * What the checks show of a service's text: control characters escaped (once, whatever is done
 * twice), secrets hidden before a cut.
 */
import { describe, expect, it } from 'vitest';
import { escapeControl, excerpt } from '../../src/check/shown-text.js';

describe('escapeControl', () => {
  it('writes C0, DEL, C1, line separators and bidirectional overrides as escapes', () => {
    expect(escapeControl('a\r\n\tb\u0000\u001B[31m\u007F\u0085\u009B\u2028\u202Ez\u2066')).toBe(
      'a\\r\\n\\tb\\x00\\x1B[31m\\x7F\\x85\\x9B\\u2028\\u202Ez\\u2066',
    );
    expect(escapeControl('plain text, ümlaut, 日本')).toBe('plain text, ümlaut, 日本');
    const once = escapeControl('\u001B]52;c;aGk=\u0007');
    expect(escapeControl(once)).toBe(once);
  });
});

describe('excerpt', () => {
  it('hides a secret before it cuts, so a secret across the cut is never shown in part', () => {
    const secrets = [{ value: 'secret-value-123', variable: '$TASKWIRE_USER_TOKEN' as const }];
    expect(excerpt(`${'x'.repeat(8)}secret-value-123 more`, 12, secrets)).toBe('xxxxxxxx$TAS…');
    expect(excerpt('short', 12, secrets)).toBe('short');
  });
});
