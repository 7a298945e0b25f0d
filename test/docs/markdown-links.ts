/**
 * Markdown pages as the docs tests read them: the headings and links of a page (shared with the
 * consumer test's check of the unpacked package, in test/support/markdown-anchors.mjs), a section
 * of a page, the packages its install lines name, and a test file as a guide shows it.
 */
import { readFileSync } from 'node:fs';

export { headingAnchorsOf, relativeLinksOf } from '../support/markdown-anchors.mjs';

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

/** The section of `markdown` under the `##` heading `title` (empty when there is none). */
export function sectionOf(markdown: string, title: string): string {
  const start = markdown.indexOf(`\n## ${title}\n`);
  if (start < 0) return '';
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end < 0 ? undefined : end);
}

/** The packages `npm install` commands in `markdown`'s shell blocks install (versions dropped). */
export function installedBy(markdown: string): Set<string> {
  const shell = [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].map(([, code = '']) => code);
  const commands = shell.flatMap((code) => [...code.matchAll(/^npm install (.+)$/gm)]);
  return new Set(
    commands.flatMap(([, args = '']) =>
      (args.split('#')[0] ?? '')
        .split(/\s+/)
        .filter((word) => word !== '' && !word.startsWith('-'))
        .map((word) => word.replace(/(.)@[^@/]*$/, '$1')),
    ),
  );
}
