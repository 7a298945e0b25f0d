/* global process -- a Node module */
// Checks of the unpacked tarball itself, beside the app's (run-consumer-test.mjs): its package.json
// is the published one (no `scripts` or `devDependencies`, which name files it does not ship);
// every relative link of its README and of its guides (docs/*.md) goes to a file it holds, and to
// a heading of that file; and `taskwire/testing` loads in a project without msw, where only
// `taskwireHandlers` fails, saying how to install msw.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { headingAnchorsOf, relativeLinksOf } from '../support/markdown-anchors.mjs';
import { linkPackages } from './install-package.mjs';
import { runProcess } from './run-process.mjs';

/** Fails when the published package.json still holds what only the repository uses. */
export function checkPublishedManifest(manifest) {
  const left = ['scripts', 'devDependencies'].filter((field) => field in manifest);
  if (left.length > 0)
    throw new Error(`The published package.json holds ${left.join(' and ')}, for files it lacks.`);
}

/**
 * Every relative link of the README and of docs/*.md in the unpacked package at `packageRoot`
 * must name a file of the package (and a heading of it, for Markdown); returns how many links
 * were checked, or throws listing those that go nowhere.
 */
export function checkPackageLinks(packageRoot) {
  const pages = [
    'README.md',
    ...readdirSync(join(packageRoot, 'docs'))
      .filter((file) => file.endsWith('.md'))
      .map((file) => `docs/${file}`),
  ];
  const broken = [];
  let count = 0;
  for (const page of pages) {
    for (const { target, anchor } of relativeLinksOf(
      readFileSync(join(packageRoot, page), 'utf8'),
    )) {
      count += 1;
      const href = anchor === undefined ? target : `${target}#${anchor}`;
      const file = target === '' ? page : normalize(join(dirname(page), target));
      if (file.startsWith('..') || !existsSync(join(packageRoot, file))) {
        broken.push(`${page} → ${href} (no such file in the package)`);
      } else if (anchor !== undefined && file.endsWith('.md')) {
        const anchors = headingAnchorsOf(readFileSync(join(packageRoot, file), 'utf8'));
        if (!anchors.has(anchor)) broken.push(`${page} → ${href} (no such heading)`);
      }
    }
  }
  if (broken.length > 0)
    throw new Error(`Links of the package that resolve nowhere in it:\n  ${broken.join('\n  ')}`);
  return { pages: pages.length, links: count };
}

/** The project's check: imports `taskwire/testing` where msw cannot be found, and uses it. */
const WITHOUT_MSW = `
const missing = await import('msw').then(() => false, () => true);
if (!missing) throw new Error('msw can be found here; the check would prove nothing.');
const testing = await import('taskwire/testing');
const { createReferenceService } = await import('taskwire/reference');
const names = ['scriptTask', 'withFaults', 'recordRequests', 'renderWithTaskwire',
  'renderHookWithTaskwire', 'taskwireHandlers'];
for (const name of names)
  if (typeof testing[name] !== 'function') throw new Error(name + ' is not exported.');
const service = testing.withFaults(
  createReferenceService({ tasks: [testing.scriptTask('scripted', [{ complete: { ok: true } }])] }),
  [{ endpoint: 'submit', status: 503 }],
);
const answer = await service.fetch(new Request('http://taskwire.test/workflows/scripted/submit', {
  method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"params":{}}' }));
if (answer.status !== 503) throw new Error('withFaults answered ' + answer.status + ', not 503.');
let message;
try {
  testing.taskwireHandlers(service, { baseUrl: 'http://taskwire.test' });
} catch (error) {
  message = error.message;
}
await service.close();
if (!/npm install --save-dev msw@2/.test(message ?? ''))
  throw new Error('taskwireHandlers without msw did not say how to install it: ' + message);
console.log(JSON.stringify({ names, message }));
`;

/**
 * Installs the tarball at `tarballPath` into a project of its own under `workRoot` with Testing
 * Library and taskwire's dependencies but no msw (as `unpackTarball` and `linkPackages` do for the
 * app), and runs the check above there with Node; returns what `taskwireHandlers` said.
 */
export async function checkTestingWithoutMsw({ repoRoot, workRoot, tarballPath, manifest }) {
  const projectRoot = join(workRoot, 'testing-without-msw');
  const target = join(projectRoot, 'node_modules', 'taskwire');
  mkdirSync(target, { recursive: true });
  await runProcess('tar', ['-xzf', tarballPath, '-C', target, '--strip-components=1']);
  linkPackages(repoRoot, projectRoot, [
    'react',
    'react-dom',
    '@tanstack/react-query',
    '@testing-library/react',
    '@testing-library/dom',
    ...Object.keys(manifest.dependencies ?? {}),
  ]);
  writeFileSync(join(projectRoot, 'package.json'), '{ "type": "module", "private": true }\n');
  const script = join(projectRoot, 'check-testing.mjs');
  writeFileSync(script, WITHOUT_MSW);
  const output = await runProcess(process.execPath, [relative(projectRoot, script)], {
    cwd: projectRoot,
  });
  return JSON.parse(output.trim().split('\n').at(-1));
}
