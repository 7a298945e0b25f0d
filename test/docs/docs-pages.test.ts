/**
 * The guides and reference pages are Markdown files in docs/, shipped in the package and shown by
 * the Storybook through thin pages in stories/docs/*.mdx. Their links are relative Markdown links
 * that must resolve inside the installed package (another page of docs/ and one of its headings, or
 * an entry's declarations under dist/), their code is inline and kept equal to the type-checked or
 * tested file it is marked with, and the README's links to docs sources go to files that exist.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { docsIdOf as apiDocsIdOf, readApiEntries } from '../../scripts/api-reference.mjs';
import {
  docsIdOf,
  docsPageTitles,
  storybookHrefOf,
  withStorybookLinks,
} from '../../stories/docs/docs-links.js';
import { joinWrappedCodeSpans } from '../../stories/docs/join-wrapped-code-spans.js';
import { asPackageSource, headingAnchorsOf, relativeLinksOf } from './markdown-links.js';

const root = path.resolve(import.meta.dirname, '../..');
const storiesFolder = path.join(root, 'stories/docs');
const docsFolder = path.join(root, 'docs');
const wrappers = readdirSync(storiesFolder)
  .filter((file) => file.endsWith('.mdx'))
  .map((file) => ({ file, text: readFileSync(path.join(storiesFolder, file), 'utf8') }));
const guides = readdirSync(docsFolder)
  .filter((file) => file.endsWith('.md'))
  .map((file) => ({ file, text: readFileSync(path.join(docsFolder, file), 'utf8') }));
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, string | { types?: string }>;
};
const shippedTypes = new Set(
  Object.values(manifest.exports).flatMap((value) =>
    typeof value === 'object' && value.types ? [value.types.replace(/^\.\//, '')] : [],
  ),
);

describe('docs pages', () => {
  it('shows every page of docs/ in the Storybook under its title, through a page that imports it', () => {
    expect(guides.map(({ file }) => file).sort()).toEqual(Object.keys(docsPageTitles).sort());
    const shown = wrappers.flatMap(({ file, text }) => {
      const imported = /from '\.\.\/\.\.\/docs\/([^']+\.md)\?raw'/.exec(text)?.[1];
      const title = /<Meta\s+title="([^"]+)"/.exec(text)?.[1];
      expect(title, `${file} has no <Meta title="…" />`).toBeDefined();
      if (imported === undefined) return [];
      expect(title, `${file} shows docs/${imported}`).toBe(docsPageTitles[imported]);
      return [imported];
    });
    expect(shown.sort()).toEqual(Object.keys(docsPageTitles).sort());
    const titles = wrappers.map(({ text }) => /<Meta\s+title="([^"]+)"/.exec(text)?.[1]);
    expect(titles.filter((title, index) => titles.indexOf(title) !== index)).toEqual([]);
  });

  it('keeps the code inline: no raw imports, no Storybook blocks, no Storybook links in docs/', () => {
    for (const { file, text } of guides) {
      expect(text, file).not.toMatch(/\?raw|<Source|<Canvas|<Meta|\?path=\/docs/);
    }
  });

  it('points every relative link of docs/ at a file the package ships, and at a heading of it', () => {
    const problems: string[] = [];
    let count = 0;
    for (const { file, text } of guides) {
      for (const { target, anchor } of relativeLinksOf(text)) {
        count += 1;
        const inPackage = path.posix.normalize(path.posix.join('docs', target || file));
        if (inPackage.startsWith('dist/')) {
          if (!shippedTypes.has(inPackage))
            problems.push(`${file} → ${inPackage} (no entry's types)`);
          continue;
        }
        if (!inPackage.startsWith('docs/') || !existsSync(path.join(root, inPackage))) {
          problems.push(`${file} → ${inPackage} (not in the package)`);
          continue;
        }
        if (anchor !== undefined && inPackage.endsWith('.md')) {
          const anchors = headingAnchorsOf(readFileSync(path.join(root, inPackage), 'utf8'));
          if (!anchors.has(anchor)) problems.push(`${file} → ${inPackage}#${anchor} (no heading)`);
        }
      }
    }
    expect(count).toBeGreaterThan(20);
    expect(problems, 'links of docs/ that go nowhere in the package').toEqual([]);
  });

  it('turns every link between pages into a Storybook link to a page that exists', () => {
    const ids = new Set([
      ...Object.values(docsPageTitles).map((title) => docsIdOf(title)),
      ...readApiEntries(root).map(({ specifier }) => apiDocsIdOf(specifier)),
    ]);
    const links = guides.flatMap(({ file, text }) =>
      [...withStorybookLinks(text).matchAll(/\]\(\?path=\/docs\/([^)#]+)/g)].map(([, id = '']) => ({
        file,
        id,
      })),
    );
    expect(links.length).toBeGreaterThan(20);
    expect(
      links.filter(({ id }) => !ids.has(id)).map(({ file, id }) => `${file} → ${id}`),
      'links to docs pages that do not exist',
    ).toEqual([]);
    expect(storybookHrefOf('./hooks.md#submit')).toBe('?path=/docs/guides-hooks--docs#submit');
    expect(storybookHrefOf('../dist/client/index.d.ts#taskwireerror')).toBe(
      '?path=/docs/reference-api--taskwire-client#taskwireerror',
    );
    expect(storybookHrefOf('#options')).toBe('#options');
  });

  it('shows only stories that the page showing it imports', () => {
    for (const { file, text } of guides) {
      const wrapper = wrappers.find(({ text: page }) => page.includes(`/docs/${file}?raw`));
      for (const [, module = ''] of text.matchAll(/^<!-- story: (\w+)\.\w+ -->$/gm)) {
        expect(wrapper?.text, `${file} shows a story of ${module}`).toMatch(
          new RegExp(`import \\* as ${module} from`),
        );
      }
    }
  });

  it('keeps every code block marked with a file equal to that file, as an app imports it', () => {
    const marked = guides.flatMap(({ file, text }) =>
      [...text.matchAll(/<!-- code: (\S+) -->\s*```\w*\n([\s\S]*?)```/g)].map(
        ([, source = '', code]) => ({ file, source, code }),
      ),
    );
    expect(marked.length).toBeGreaterThan(10);
    for (const { file, source, code } of marked) {
      expect(code, `${file}: the block marked ${source}`).toBe(
        asPackageSource(readFileSync(path.join(root, source), 'utf8')),
      );
    }
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
