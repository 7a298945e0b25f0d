/**
 * The testing guide's "Setup" installs what its examples need: every package their code imports,
 * the required peers of Testing Library and of `taskwire/testing`, and the environment its Vitest
 * config names, beside what the quick start installs for the app itself (docs/introduction.md).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { installedBy, sectionOf } from './markdown-links.js';

const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const guide = read('docs/testing-your-components.md');

/** The package a bare import names (`msw/node` → `msw`, `@scope/name/x` → `@scope/name`). */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const setup = sectionOf(guide, 'Setup');
const installed = new Set([...installedBy(setup), ...installedBy(read('docs/introduction.md'))]);
const code = [...guide.matchAll(/```(?:ts|tsx)\n([\s\S]*?)```/g)].map(([, block = '']) => block);

describe('the testing guide’s setup', () => {
  it('installs every package the examples import', () => {
    const imported = new Set(
      code.flatMap((block) =>
        [...block.matchAll(/(?:from|import) '([^']+)'/g)].flatMap(([, specifier = '']) => {
          const name = packageOf(specifier);
          return name === undefined ? [] : [name];
        }),
      ),
    );
    expect(imported.size).toBeGreaterThan(5);
    expect([...imported].filter((name) => !installed.has(name))).toEqual([]);
  });

  it('installs the required peers of Testing Library and taskwire/testing, and jsdom', () => {
    const peersOf = (file: string) => {
      const manifest = JSON.parse(read(file)) as {
        peerDependencies?: Record<string, string>;
        peerDependenciesMeta?: Record<string, { optional?: boolean }>;
      };
      return Object.keys(manifest.peerDependencies ?? {}).filter(
        (name) => !manifest.peerDependenciesMeta?.[name]?.optional && !name.startsWith('@types/'),
      );
    };
    const needed = [
      ...peersOf('node_modules/@testing-library/react/package.json'),
      ...peersOf('package.json'),
      '@testing-library/react',
      '@testing-library/jest-dom',
      'msw',
      'jsdom',
    ];
    expect(setup).toMatch(/environment: 'jsdom'/);
    expect(needed.filter((name) => !installed.has(name))).toEqual([]);
  });
});
