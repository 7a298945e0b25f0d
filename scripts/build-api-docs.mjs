#!/usr/bin/env node
/* global process, console, performance -- a Node script, linted by the shared config without Node globals for .mjs */
// Writes the API reference into api-reference/ (git-ignored) before Storybook starts or builds:
// TypeDoc reads the doc comments of every public entry of package.json's `exports`, the markdown
// plugin renders one page per entry, and each page gets an MDX file that shows it under
// "Reference/API" in the Storybook (.storybook/main.ts reads api-reference/*.mdx). Links between
// the pages become Storybook links. Nothing is fetched: it runs offline.
//
//   node scripts/build-api-docs.mjs           writes the pages, unless nothing they are made of changed
//   node scripts/build-api-docs.mjs --force   writes them whatever changed
//
// Up to date means: the same sources under src/, typedoc.json, package.json, these scripts and
// TypeDoc's version as when the pages were last written (a hash kept in api-reference/). TypeDoc's
// warnings (a public type that names an unexported one, a broken {@link}, a public name without a
// comment) are printed and do not stop Storybook; test/docs/public-api.test.ts fails on any of them.
import { createHash } from 'node:crypto';
import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, posix, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  REFERENCE_TITLE,
  convertApiReference,
  docsIdOf,
  readApiEntries,
  slugOf,
} from './api-reference.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Where the pages go; .gitignore and .storybook/main.ts name the same folder. */
const outputDirectory = join(root, 'api-reference');
const stampFile = join(outputDirectory, '.inputs-hash');

/** Every file under `directory`, relative to the root, in a stable order. */
async function filesUnder(directory) {
  const found = await readdir(join(root, directory), { withFileTypes: true, recursive: true });
  return found
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .sort();
}

/** A hash of everything the pages are made of. */
async function inputsHash() {
  const hash = createHash('sha256');
  const typedocManifest = join(root, 'node_modules', 'typedoc', 'package.json');
  const files = [
    ...(await filesUnder('src')),
    'typedoc.json',
    'package.json',
    'tsconfig.json',
    'tsconfig.build.json',
    'scripts/api-reference.mjs',
    'scripts/build-api-docs.mjs',
  ];
  for (const file of files)
    hash
      .update(file)
      .update('\0')
      .update(await readFile(join(root, file)));
  hash.update(JSON.parse(await readFile(typedocManifest, 'utf8')).version);
  return hash.digest('hex');
}

/**
 * The page's Markdown with its links to other pages turned into Storybook links: TypeDoc writes
 * `taskwire/client.md#taskclient` relative to the page; Storybook opens `?path=/docs/<id>`.
 */
function rewriteLinks(markdown, pageFile, specifierOfFile) {
  return markdown.replace(/\]\(([^)#\s]+\.md)(#[^)\s]*)?\)/g, (link, target, anchor = '') => {
    const file = posix.normalize(posix.join(posix.dirname(pageFile), target));
    const specifier = specifierOfFile.get(file);
    if (specifier === undefined) return link;
    const page =
      specifierOfFile.get(pageFile) === specifier ? '' : `?path=/docs/${docsIdOf(specifier)}`;
    return `](${page}${anchor})`;
  });
}

/** The MDX page that shows one entry's Markdown under "Reference/API". */
function docsPage(specifier) {
  return [
    `{/* Written by scripts/build-api-docs.mjs from the doc comments of ${specifier}; do not edit. */}`,
    '',
    "import { Meta } from '@storybook/addon-docs/blocks';",
    "import { MarkdownPage } from '../stories/docs/markdown-page';",
    `import reference from './${slugOf(specifier)}.md?raw';`,
    '',
    `<Meta title="${REFERENCE_TITLE}" name="${specifier}" />`,
    '',
    '<MarkdownPage markdown={reference} />',
    '',
  ].join('\n');
}

async function main() {
  const force = process.argv.slice(2).includes('--force');
  const started = performance.now();
  const hash = await inputsHash();
  const previous = await readFile(stampFile, 'utf8').catch(() => '');
  if (!force && previous === hash) {
    console.log('API reference up to date (api-reference/).');
    return;
  }

  const renderDirectory = await mkdtemp(join(tmpdir(), 'taskwire-api-'));
  try {
    const { app, project } = await convertApiReference(root, { out: renderDirectory });
    if (project === undefined) throw new Error('TypeDoc could not convert the entries (above).');
    app.validate(project);
    await app.generateOutputs(project);
    if (app.logger.hasErrors()) throw new Error('TypeDoc reported errors (above).');

    const entries = readApiEntries(root);
    // TypeDoc names each page after its module, which convertApiReference named by specifier.
    const specifierOfFile = new Map(entries.map(({ specifier }) => [`${specifier}.md`, specifier]));
    await rm(outputDirectory, { recursive: true, force: true });
    await mkdir(outputDirectory, { recursive: true });
    for (const [pageFile, specifier] of specifierOfFile) {
      const markdown = await readFile(join(renderDirectory, pageFile), 'utf8');
      const slug = slugOf(specifier);
      await writeFile(
        join(outputDirectory, `${slug}.md`),
        rewriteLinks(markdown, pageFile, specifierOfFile),
      );
      await writeFile(join(outputDirectory, `${slug}.mdx`), docsPage(specifier));
    }
    await writeFile(stampFile, hash);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `API reference of ${entries.length} entries written to api-reference/ in ${seconds} s.`,
    );
  } finally {
    await rm(renderDirectory, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
