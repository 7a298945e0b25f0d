/**
 * Reading the links and headings of a Markdown page as GitHub and npm show it, shared by the docs
 * tests and the consumer test's check of the unpacked package (test/consumer/check-package-links.mjs
 * has its own copy in plain JavaScript, since it runs without a TypeScript loader).
 */

/** The anchors of `markdown`'s headings as GitHub makes them (lower case, punctuation dropped, `-1` after repeats). */
export function headingAnchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let inFence = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) inFence = !inFence;
    const heading = inFence ? null : /^#{1,6} (.*)$/.exec(line);
    if (!heading?.[1]) continue;
    const slug = heading[1]
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Every link of `markdown` outside code that is neither a URL with a scheme nor a mail address. */
export function relativeLinksOf(markdown: string): { target: string; anchor?: string }[] {
  const prose = markdown.replace(/^```[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].flatMap(([, href = '']) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(href)) return [];
    const [target = '', anchor] = href.split('#', 2);
    return [anchor === undefined ? { target } : { target, anchor }];
  });
}

const entryOfSource: Readonly<Record<string, string>> = {
  'src/index.js': 'taskwire',
  'src/client/index.js': 'taskwire/client',
  'src/reference/index.js': 'taskwire/reference',
  'src/reference/node/index.js': 'taskwire/reference/node',
  'src/testing/index.js': 'taskwire/testing',
  'src/check/index.js': 'taskwire/check',
  'src/devtools/index.js': 'taskwire/devtools',
  'src/locales/de.js': 'taskwire/locales/de',
};

/**
 * A test file as a guide shows it: its imports of this repository's sources named as an app names
 * the package's entries, and the line that says they are sources left out.
 */
export function asPackageSource(source: string): string {
  return source
    .replace(/^\/\/ The imports name the sources.*\n/m, '')
    .replace(/(['"])(?:\.\.\/)+(src\/[^'"]+)\1/g, (match, quote: string, file: string) => {
      const entry = entryOfSource[file];
      return entry === undefined ? match : `${quote}${entry}${quote}`;
    });
}
