/**
 * The Storybook's docs pages (stories/docs/*.mdx, and the API reference pages that
 * scripts/build-api-docs.mjs writes) link to each other by Storybook id, and the README links to
 * their sources: a renamed page or file must not leave a link that goes nowhere.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { docsIdOf, readApiEntries } from '../../scripts/api-reference.mjs';
import { joinWrappedCodeSpans } from '../../stories/docs/join-wrapped-code-spans.js';

const root = path.resolve(import.meta.dirname, '../..');
const docsFolder = path.join(root, 'stories/docs');
const pages = readdirSync(docsFolder)
  .filter((file) => file.endsWith('.mdx'))
  .map((file) => ({ file, text: readFileSync(path.join(docsFolder, file), 'utf8') }));

/** Storybook's id of a docs page: its title and name, lower case, runs of other characters as `-`. */
function docsId(title: string, name = 'Docs'): string {
  const sanitize = (text: string) =>
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '');
  return `${sanitize(title)}--${sanitize(name)}`;
}

describe('docs pages', () => {
  it('gives every page under stories/docs a title of its own', () => {
    const titles = pages.map(({ file, text }) => {
      const title = /<Meta\s+title="([^"]+)"/.exec(text)?.[1];
      expect(title, `${file} has no <Meta title="…" />`).toBeDefined();
      return title;
    });
    expect(titles.filter((title, index) => titles.indexOf(title) !== index)).toEqual([]);
  });

  it('points every link between pages at a page that exists', () => {
    const ids = new Set([
      ...pages.flatMap(({ text }) => {
        const meta = /<Meta\s+title="([^"]+)"(?:\s+name="([^"]+)")?/.exec(text);
        return meta?.[1] ? [docsId(meta[1], meta[2])] : [];
      }),
      ...readApiEntries(root).map(({ specifier }) => docsIdOf(specifier)),
    ]);
    const links = pages.flatMap(({ file, text }) =>
      [...text.matchAll(/\]\(\?path=\/docs\/([^)#]+)/g)].map(([, id = '']) => ({ file, id })),
    );
    expect(links.length).toBeGreaterThan(0);
    expect(
      links.filter(({ id }) => !ids.has(id)).map(({ file, id }) => `${file} → ${id}`),
      'links to docs pages that do not exist',
    ).toEqual([]);
  });

  it("points the README's links to docs sources at files that exist", () => {
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    const links = [...readme.matchAll(/\]\(((?:stories|docs)\/[^)#]+)/g)].map(
      ([, file = '']) => file,
    );
    expect(links.length).toBeGreaterThan(0);
    expect(links.filter((file) => !existsSync(path.join(root, file)))).toEqual([]);
  });

  it('puts every inline code span on one line, leaving fenced blocks alone', () => {
    const markdown = 'a `b\nc` d `e`\nf `g`\n\n```ts\nx `y\nz`\n```\nand ``h\n  i``';
    expect(joinWrappedCodeSpans(markdown)).toBe(
      'a `b c` d `e`\nf `g`\n\n```ts\nx `y\nz`\n```\nand ``h i``',
    );
  });
});
