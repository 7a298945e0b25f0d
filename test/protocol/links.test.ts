import { describe, expect, it } from 'vitest';
import { isSafeAppLink, isSafeWebLink } from '../../src/protocol/links.js';

describe('isSafeWebLink', () => {
  it('accepts https links in any case', () => {
    expect(isSafeWebLink('https://example.com/a?b=c')).toBe(true);
    expect(isSafeWebLink('HTTPS://example.com')).toBe(true);
  });

  it('refuses every other scheme, relative links and non-strings', () => {
    for (const link of [
      'http://example.com',
      'myapp://open',
      '/relative',
      'example.com',
      '',
      42,
      null,
    ]) {
      expect(isSafeWebLink(link)).toBe(false);
    }
  });
});

describe('isSafeAppLink', () => {
  it('accepts https and app schemes', () => {
    expect(isSafeAppLink('https://example.com')).toBe(true);
    expect(isSafeAppLink('myapp://tasks/1')).toBe(true);
    expect(isSafeAppLink('my-app+x.y:open')).toBe(true);
  });

  it('refuses dangerous schemes whatever their case, spaces or embedded tabs', () => {
    for (const link of [
      'javascript:alert(1)',
      '  JavaScript:alert(1)  ',
      'java\tscript:alert(1)',
      'java\nscript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'VBScript:msgbox',
      'file:///etc/passwd',
      'blob:https://example.com/uuid',
      'http://example.com',
      '\u0000javascript:alert(1)',
    ]) {
      expect(isSafeAppLink(link), JSON.stringify(link)).toBe(false);
    }
  });
});
