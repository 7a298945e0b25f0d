/**
 * The shape of the house (CONTRIBUTING.md, "Layout of the house"): src/ holds the protocol, the
 * client, the state machines, the React bindings, the components, the reference service and the
 * test helpers for apps (taskwire/testing), and no two modules
 * import each other in a circle, type imports included. Only `import()` edges, which load a part on
 * first use, may point back. Which folder may import which is lint's job (eslint.config.js).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const sourceRoot = path.join(root, 'src');

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The relative modules `file` imports or re-exports statically (type-only ones included). */
function staticImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const specifiers: string[] = [];
  for (const statement of source.statements) {
    const specifier =
      (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
      statement.moduleSpecifier !== undefined &&
      ts.isStringLiteral(statement.moduleSpecifier)
        ? statement.moduleSpecifier.text
        : undefined;
    if (specifier?.startsWith('.')) specifiers.push(specifier);
  }
  return specifiers.map((specifier) => {
    const base = path.resolve(path.dirname(file), specifier).replace(/\.js$/, '');
    return [`${base}.ts`, `${base}.tsx`].find((candidate) => files.includes(candidate)) ?? base;
  });
}

/** Strongly connected components of more than one module (Tarjan), or of one that imports itself. */
function importCircles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || graph.get(node)?.includes(node)) circles.push(component);
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return circles;
}

const files = sourceFiles(sourceRoot);
const relative = (file: string) => path.relative(root, file);

describe('the house', () => {
  it('shows its parts in the folder list of src/', () => {
    const folders = readdirSync(sourceRoot, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    expect(folders).toEqual([
      'client',
      'components',
      'devtools',
      'locales',
      'protocol',
      'react',
      'reference',
      'state',
      'testing',
    ]);
  });

  it('has no import circle in src/ besides import() edges', () => {
    const graph = new Map(files.map((file) => [file, staticImports(file)]));
    expect(graph.size).toBeGreaterThan(50);
    expect(importCircles(graph).map((circle) => circle.map(relative).sort())).toEqual([]);
  });

  it('finds a circle where there is one', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(importCircles(graph).map((circle) => circle.sort())).toEqual([['a', 'b', 'c']]);
  });
});
