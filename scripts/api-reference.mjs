// The API reference, generated from the doc comments by TypeDoc: one Markdown page per public entry
// of package.json's `exports`, shown in the Storybook as a docs page under "Reference/API". Shared by
// scripts/build-api-docs.mjs (which writes the pages before Storybook starts or builds) and
// test/docs/public-api.test.ts (which checks that every exported name has its comment there).
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The Storybook title every reference page shares; each page's name is its entry's specifier. */
export const REFERENCE_TITLE = 'Reference/API';

/** `taskwire/reference/node` as a file name and a Storybook id part: `taskwire-reference-node`. */
export function slugOf(specifier) {
  return specifier.replace(/[^A-Za-z0-9]+/g, '-');
}

/** The docs id Storybook gives the page named `specifier` under REFERENCE_TITLE. */
export function docsIdOf(specifier) {
  const sanitize = (text) =>
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '');
  return `${sanitize(REFERENCE_TITLE)}--${sanitize(specifier)}`;
}

/**
 * The JavaScript entries of package.json's `exports`, mapped from `dist/` back to `src/`. The
 * `taskwire` entry comes last: it exports `taskwire/client`'s names again, and TypeDoc documents a
 * name under the first entry that exports it, so those names stay on the client's page.
 */
export function readApiEntries(root) {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const entries = Object.entries(manifest.exports).flatMap(([key, value]) => {
    const built = typeof value === 'string' ? value : value.import;
    if (built === undefined || !built.endsWith('.js')) return []; // styles.css, package.json
    const stem = built.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '');
    const file = [`${stem}.ts`, `${stem}.tsx`].find((candidate) =>
      existsSync(join(root, candidate)),
    );
    if (file === undefined) throw new Error(`No source file for the entry ${key} (${built}).`);
    const specifier = key === '.' ? manifest.name : manifest.name + key.slice(1);
    return [{ specifier, file }];
  });
  return [
    ...entries.filter((entry) => entry.specifier !== manifest.name),
    ...entries.filter((entry) => entry.specifier === manifest.name),
  ];
}

/**
 * Converts the entries with the options of typedoc.json and names each module after its import
 * specifier (`taskwire/client`, not TypeDoc's `client`), so the pages and the checks speak of what
 * an app imports. Resolves to `{ app, project, entries }`; `project` is undefined when TypeDoc
 * could not convert (it has logged why).
 */
export async function convertApiReference(root, overrides = {}) {
  // Loaded here, not at the top: a check that finds the pages up to date should not wait for it.
  const { Application, ReflectionKind, TSConfigReader, TypeDocReader } = await import('typedoc');
  const entries = readApiEntries(root);
  const app = await Application.bootstrapWithPlugins(
    {
      options: join(root, 'typedoc.json'),
      tsconfig: join(root, 'tsconfig.build.json'),
      entryPoints: entries.map((entry) => join(root, entry.file)),
      ...overrides,
    },
    [new TypeDocReader(), new TSConfigReader()],
  );
  const project = await app.convert();
  if (project === undefined) return { app, project, entries };
  const specifierOfFile = new Map(entries.map((entry) => [resolve(root, entry.file), entry]));
  for (const module of project.getChildrenByKind(ReflectionKind.Module)) {
    const file = project.getSymbolIdFromReflection(module)?.fileName;
    const entry = file === undefined ? undefined : specifierOfFile.get(resolve(file));
    if (entry === undefined) throw new Error(`No entry for the module ${module.name} (${file}).`);
    module.name = entry.specifier;
  }
  return { app, project, entries };
}

/** The text of a comment's summary, or '' when it has none. */
function summaryText(comment) {
  return (comment?.summary ?? [])
    .map((part) => part.text)
    .join('')
    .trim();
}

/**
 * The doc comment of a reflection as a reader sees it: its own, or for a function the first
 * signature's, and for a re-export the comment of what it points at.
 */
export function documentationOf(reflection) {
  const target = reflection.isReference() ? reflection.getTargetReflectionDeep() : reflection;
  const own = summaryText(target.comment);
  if (own !== '') return own;
  for (const signature of target.signatures ?? []) {
    const text = summaryText(signature.comment);
    if (text !== '') return text;
  }
  return '';
}
