/**
 * `stop()` is not cancel (docs/protocol.md, "The hooks"): the service has none, so every page that
 * documents `stop()` says that the task runs on and is paid for, and that `attach(taskId)` picks it
 * up again; the client guide says the same of closing a stream.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const pages = ['README.md', ...readdirSync(path.join(root, 'docs')).map((file) => `docs/${file}`)]
  .filter((file) => file.endsWith('.md'))
  .map((file) => ({
    file,
    text: readFileSync(path.join(root, file), 'utf8').replace(/\s+/g, ' '),
  }));

describe('stop() is not cancel', () => {
  const documenting = pages.filter(({ text }) => text.includes('`stop()`'));

  it('is documented where the hooks are', () => {
    expect(documenting.map(({ file }) => file)).toEqual(
      expect.arrayContaining(['README.md', 'docs/hooks.md', 'docs/protocol.md']),
    );
  });

  it.each(documenting)('says so in $file: no cancel, paid for, attach picks it up', ({ text }) => {
    expect(text).toMatch(/`stop\(\)` is not (a )?cancel/);
    expect(text).toMatch(/runs on and is paid for/);
    expect(text).toContain('`attach(taskId)`');
  });

  it('says so of closing a stream in the client guide', () => {
    const client = pages.find(({ file }) => file === 'docs/the-client.md')!.text;
    expect(client).toMatch(
      /Neither is a cancel: the service has none, so the task runs on and is paid for/,
    );
  });
});
