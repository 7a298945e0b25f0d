/**
 * The project's rules live in the project: docs/protocol.md writes the wire protocol down, and
 * comments point to it by the title of one of its `##` sections. Those titles are the citations'
 * only anchor, so a citation that names no section, or a comment that still cites the documents
 * outside the repository that it replaced, would send a reader nowhere.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const protocol = readFileSync(path.join(root, 'docs/protocol.md'), 'utf8');
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');

/** The folders whose files may cite the protocol. */
const FOLDERS = ['src', 'test', 'bench', 'stories', 'scripts', '.storybook'];
/**
 * The old citations: the contract outside the repository, named in capitals with a section number,
 * and the interface document's sections, cited with the section sign. Spelled so that this file does
 * not match itself, and a search of the tree for the old forms comes back empty once they are gone.
 */
const STALE = /CONTRA[C]T|\u00a7/;

/** Every file under `folder`, relative to the root. */
function filesUnder(folder: string): string[] {
  return readdirSync(path.join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : filesUnder(relative);
    return entry.isFile() ? [relative] : [];
  });
}

const files = FOLDERS.flatMap(filesUnder).map((file) => ({
  file,
  text: readFileSync(path.join(root, file), 'utf8'),
}));

/** The `##` headings of a Markdown text; lines inside code fences are no headings. */
function sectionHeadings(markdown: string): string[] {
  const headings: string[] = [];
  let inFence = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) inFence = !inFence;
    const heading = inFence ? null : /^## (.+)$/.exec(line);
    if (heading?.[1]) headings.push(heading[1].trim());
  }
  return headings;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/**
 * The section titles cited in `text`: `docs/protocol.md, "Streams"`, also as a list
 * (`docs/protocol.md, "Execute" and "Options"`) and wrapped over the lines of a comment.
 */
function citedSections(text: string): string[] {
  // A comment wrapped over several lines reads as one line once its `*` or `//` prefixes are gone.
  const joined = text.replace(/\s*\n\s*(?:\*(?!\/)|\/\/)?[ \t]*/g, ' ');
  const citations = joined.matchAll(/docs\/protocol\.md, ((?:"[^"]*"(?:,? and |, )?)+)/g);
  return [...citations].flatMap(([, list = '']) =>
    [...list.matchAll(/"([^"]*)"/g)].map(([, title = '']) => title),
  );
}

const headings = sectionHeadings(protocol);

describe('docs/protocol.md citations', () => {
  it('has sections, each with a title of its own', () => {
    expect(headings.length).toBeGreaterThan(0);
    expect(headings.filter((heading, index) => headings.indexOf(heading) !== index)).toEqual([]);
  });

  it('names a section of docs/protocol.md in every citation', () => {
    const known = new Set(headings);
    const citations = files.flatMap(({ file, text }) =>
      citedSections(text).map((title) => ({ file, title })),
    );
    expect(citations.length, 'no file cites docs/protocol.md').toBeGreaterThan(0);
    expect(
      citations
        .filter(({ title }) => !known.has(title))
        .map(({ file, title }) => `${file}: "${title}"`),
      'citations of sections that docs/protocol.md does not have',
    ).toEqual([]);
  });

  it('cites neither the contract nor the sections of the interface document', () => {
    const stale = files.flatMap(({ file, text }) =>
      text
        .split('\n')
        .flatMap((line, index) =>
          STALE.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [],
        ),
    );
    expect(stale, 'lines that cite the old documents instead of docs/protocol.md').toEqual([]);
  });

  it('points every link into docs/protocol.md at one of its sections', () => {
    const anchors = new Set(headings.map(anchorOf));
    const links = [
      ...[...readme.matchAll(/\]\(docs\/protocol\.md#([^)]+)\)/g)].map(
        ([, anchor = '']) => `README.md → #${anchor}`,
      ),
      ...[...protocol.matchAll(/\]\(#([^)]+)\)/g)].map(
        ([, anchor = '']) => `docs/protocol.md → #${anchor}`,
      ),
    ];
    expect(links.length).toBeGreaterThan(0);
    expect(
      links.filter((link) => !anchors.has(link.slice(link.indexOf('#') + 1))),
      'links to sections that docs/protocol.md does not have',
    ).toEqual([]);
  });
});
