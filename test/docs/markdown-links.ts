/**
 * Markdown pages as the docs tests read them: the headings and links of a page (shared with the
 * consumer test's check of the unpacked package, in test/support/markdown-anchors.mjs), and a test
 * file as a guide shows it.
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
