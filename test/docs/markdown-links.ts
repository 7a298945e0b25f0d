/**
 * Reading the links and headings of a Markdown page as GitHub and npm show it, shared by the docs
 * tests and the consumer test's check of the unpacked package (test/consumer/check-package-files.mjs
 * has its own copy in plain JavaScript, since it runs without a TypeScript loader).
 */
import { readFileSync } from 'node:fs';

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

/** Each entry of package.json's `exports` by the source its build comes from: `src/client/index.js` → `taskwire/client`. */
const entryOfSource: ReadonlyMap<string, string> = (() => {
  const manifest = JSON.parse(
    readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
  ) as { name: string; exports: Record<string, string | { import?: string }> };
  return new Map(
    Object.entries(manifest.exports).flatMap(([key, value]) => {
      const built = typeof value === 'string' ? value : value.import;
      if (built === undefined || !built.startsWith('./dist/') || !built.endsWith('.js')) return [];
      return [[built.replace(/^\.\/dist\//, 'src/'), manifest.name + key.slice(1)]];
    }),
  );
})();

/**
 * A test file as a guide shows it: its imports of this repository's sources named as an app names
 * the package's entries, and the line that says they are sources left out.
 */
export function asPackageSource(source: string): string {
  return source
    .replace(/^\/\/ The imports name the sources.*\n/m, '')
    .replace(/(['"])(?:\.\.\/)+(src\/[^'"]+)\1/g, (match, quote: string, file: string) => {
      const entry = entryOfSource.get(file);
      return entry === undefined ? match : `${quote}${entry}${quote}`;
    });
}
