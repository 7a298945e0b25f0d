/**
 * Docs are part of the feature: every name a public entry exports has a doc comment, and the API
 * reference that TypeDoc generates from those comments (the Storybook's "Reference/API" pages,
 * scripts/build-api-docs.mjs) shows it with that comment under its entry; the README's checked code
 * samples are the files the type tests compile. The entries are read from package.json's `exports`,
 * so a new entry is covered at once.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { Logger, LogLevel } from 'typedoc';
import { beforeAll, describe, expect, it } from 'vitest';
import { headingAnchorsOf } from '../support/markdown-anchors.mjs';
import { readExportedNames } from '../support/exported-names.js';
import {
  convertApiReference,
  documentationOf,
  readApiEntries,
} from '../../scripts/api-reference.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');

/** Where a symbol is declared, for failure messages: `src/client/errors.ts`. */
function declaredIn(target: ts.Symbol): string {
  const file = target.declarations?.[0]?.getSourceFile().fileName;
  return file === undefined ? 'unknown file' : path.relative(root, file);
}

const entries = readApiEntries(root);
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

  describe('the generated API reference', () => {
    let app: Awaited<ReturnType<typeof convertApiReference>>['app'];
    let project: Awaited<ReturnType<typeof convertApiReference>>['project'];
    beforeAll(async () => {
      // The conversion scripts/build-api-docs.mjs renders, with typedoc.json's options.
      ({ app, project } = await convertApiReference(root, { logLevel: 'Error' }));
    }, 180_000);

    it('names nothing it leaves out: no unexported type, broken link or undocumented part', () => {
      expect(project, 'TypeDoc could not convert the entries').toBeDefined();
      /** Keeps the warnings of TypeDoc's own validation (typedoc.json's `validation`). */
      class WarningLog extends Logger {
        readonly warnings: string[] = [];
        override log(message: string, level: LogLevel): void {
          if (level === LogLevel.Warn) this.warnings.push(message);
        }
      }
      const log = new WarningLog();
      log.level = LogLevel.Warn;
      app.logger = log;
      if (project) app.validate(project);
      expect(log.warnings).toEqual([]);
    });

    it('has a page for every entry', () => {
      expect(project, 'TypeDoc could not convert the entries').toBeDefined();
      const pages = project?.children?.map((module) => module.name) ?? [];
      expect(pages.sort()).toEqual(entries.map((entry) => entry.specifier).sort());
    });

    it("shows every exported name under its entry, with the name's doc comment", () => {
      const problems: string[] = [];
      for (const { name, entry, target } of names) {
        const reflection = project?.getChildByName([entry.specifier, name]);
        if (reflection === undefined) {
          problems.push(`${name} is missing from ${entry.specifier} (${declaredIn(target)})`);
        } else if (documentationOf(reflection) === '') {
          problems.push(`${name} has no comment under ${entry.specifier} (${declaredIn(target)})`);
        }
      }
      expect(problems, 'names the API reference does not document').toEqual([]);
    });
  });

  it('points every in-page link of the README at one of its headings', () => {
    // GitHub's anchors: the heading's text, lower case, punctuation dropped, spaces as hyphens, and
    // -1, -2… after repeats. Lines inside code fences are no headings.
    const anchors = headingAnchorsOf(readme);
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
