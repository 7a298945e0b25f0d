/**
 * Docs are part of the feature: every name a public entry exports has a doc comment and a place in
 * the README's API reference, and the README's checked code samples are the files the type tests
 * compile. The entries are read from package.json's `exports`, so a new entry is covered at once.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');

interface Entry {
  /** The import specifier, such as `taskwire/client`. */
  specifier: string;
  /** The source file of the entry, relative to the root. */
  file: string;
}

interface ExportedName {
  name: string;
  entry: Entry;
  /** The declaration the name resolves to, shared by every entry that re-exports it. */
  target: ts.Symbol;
}

/** The JavaScript entries of package.json's `exports`, mapped from `dist/` back to `src/`. */
function readEntries(): Entry[] {
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    name: string;
    exports: Record<string, string | { import?: string }>;
  };
  return Object.entries(manifest.exports).flatMap(([key, value]) => {
    const built = typeof value === 'string' ? value : value.import;
    if (built === undefined || !built.endsWith('.js')) return []; // styles.css, package.json
    const stem = built.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '');
    const file = [`${stem}.ts`, `${stem}.tsx`].find((candidate) =>
      existsSync(path.join(root, candidate)),
    );
    if (file === undefined) throw new Error(`No source file for the entry ${key} (${built}).`);
    return [{ specifier: key === '.' ? manifest.name : manifest.name + key.slice(1), file }];
  });
}

/** Every name (value or type) each entry exports, resolved through re-exports to its declaration. */
function readExportedNames(entries: Entry[]): { names: ExportedName[]; checker: ts.TypeChecker } {
  const configPath = path.join(root, 'tsconfig.json');
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (config === undefined) throw new Error('tsconfig.json could not be read.');
  const program = ts.createProgram({
    rootNames: entries.map((entry) => path.join(root, entry.file)),
    options: config.options,
  });
  const checker = program.getTypeChecker();
  const names = entries.flatMap((entry) => {
    const sourceFile = program.getSourceFile(path.join(root, entry.file));
    const moduleSymbol = sourceFile && checker.getSymbolAtLocation(sourceFile);
    if (moduleSymbol === undefined) throw new Error(`${entry.file} is not a module.`);
    return checker.getExportsOfModule(moduleSymbol).map((symbol) => ({
      name: symbol.getName(),
      entry,
      target: symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol,
    }));
  });
  return { names, checker };
}

/** Where a symbol is declared, for failure messages: `src/client/errors.ts`. */
function declaredIn(target: ts.Symbol): string {
  const file = target.declarations?.[0]?.getSourceFile().fileName;
  return file === undefined ? 'unknown file' : path.relative(root, file);
}

/** The text between `<!-- section:NAME -->` and `<!-- /section:NAME -->`. */
function readmeSection(name: string): string {
  const start = readme.indexOf(`<!-- section:${name} -->`);
  const end = readme.indexOf(`<!-- /section:${name} -->`);
  if (start === -1 || end < start) throw new Error(`README.md has no section:${name} markers.`);
  return readme.slice(start, end);
}

/** The part of the API reference under the `### ` heading that names the entry (`taskwire/vite`). */
function entryReference(api: string, specifier: string): string {
  const parts = api.split(/^(?=### )/m);
  const part = parts.find((candidate) => {
    const heading = candidate.split('\n', 1)[0] ?? '';
    return heading.startsWith('### ') && heading.includes(`\`${specifier}\``);
  });
  return part ?? '';
}

const entries = readEntries();
const { names, checker } = readExportedNames(entries);

describe('public API', () => {
  it('finds every entry of the exports map and names in each', () => {
    expect(entries.map((entry) => entry.specifier)).toEqual(
      expect.arrayContaining([
        'taskwire',
        'taskwire/client',
        'taskwire/reference',
        'taskwire/reference/node',
        'taskwire/vite',
      ]),
    );
    for (const entry of entries) {
      expect(
        names.filter((name) => name.entry === entry).length,
        `${entry.specifier} exports no name`,
      ).toBeGreaterThan(0);
    }
  });

  it('has a doc comment on every exported name', () => {
    const undocumented = new Map<ts.Symbol, string>();
    for (const { name, entry, target } of names) {
      const comment = ts.displayPartsToString(target.getDocumentationComment(checker)).trim();
      if (comment === '' && !undocumented.has(target)) {
        undocumented.set(target, `${name} (${entry.specifier}, declared in ${declaredIn(target)})`);
      }
    }
    expect([...undocumented.values()], 'exported names without a doc comment').toEqual([]);
  });

  it("mentions every exported name in its entry's part of the README's API reference", () => {
    const api = readmeSection('api');
    const missing: string[] = [];
    for (const entry of entries) {
      if (entryReference(api, entry.specifier) === '') {
        missing.push(`the heading "### \`${entry.specifier}\`"`);
      }
    }
    // A name re-exported by several entries (the client's names are in `taskwire` again) needs
    // its place under one of them.
    // A mention is a code span that starts with the name: `name`, `name(…)`, `name<…>`, `name = …`.
    const mentions = (text: string, name: string) =>
      new RegExp(`\`${name.replace(/\$/g, '\\$')}(?![\\w$])`).test(text);
    const targets = new Map<ts.Symbol, ExportedName[]>();
    for (const exported of names) {
      targets.set(exported.target, [...(targets.get(exported.target) ?? []), exported]);
    }
    for (const exports of targets.values()) {
      const found = exports.some(({ name, entry }) =>
        mentions(entryReference(api, entry.specifier), name),
      );
      if (!found) {
        const [first] = exports;
        const where = exports.map(({ entry }) => entry.specifier).join(' or ');
        missing.push(`\`${first?.name}\` (under ${where})`);
      }
    }
    expect(missing, 'names missing from the API reference in README.md').toEqual([]);
  });

  it('points every in-page link of the README at one of its headings', () => {
    // GitHub's anchors: the heading's text, lower case, punctuation dropped, spaces as hyphens, and
    // -1, -2… after repeats. Lines inside code fences are no headings.
    const anchors = new Set<string>();
    const seen = new Map<string, number>();
    let inFence = false;
    for (const line of readme.split('\n')) {
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
    const links = [...readme.matchAll(/\]\(#([^)]+)\)/g)].map((match) => match[1] ?? '');
    expect(links.length).toBeGreaterThan(0);
    expect(
      links.filter((link) => !anchors.has(link)),
      'README links to headings that do not exist',
    ).toEqual([]);
  });

  it('keeps every README code block marked with a file identical to that file', () => {
    const marked = [...readme.matchAll(/<!-- code: (\S+) -->\s*```\w*\n([\s\S]*?)```/g)];
    expect(marked.length, 'README.md marks no code block with <!-- code: PATH -->').toBeGreaterThan(
      0,
    );
    for (const [, file = '', code] of marked) {
      expect(code, `the README block marked ${file}`).toBe(
        readFileSync(path.join(root, file), 'utf8'),
      );
    }
  });
});
