/**
 * The shape of the house (CONTRIBUTING.md, "Layout of the house"): src/ holds the protocol, the
 * client, the state machines, the query layer, the React and Vue bindings, the components, the
 * reference service, the event log and the test helpers for apps (taskwire/testing); no two modules
 * import each other in a circle, type imports and `import()` edges included; React and Vue are
 * imported only in their bindings' folders, and those folders hold bindings only (each module uses
 * its framework at run time). A module is loaded on demand only for a reason a user sees (the
 * devtools panel, kept out of an app's first chunk and out of production; the hooks' resumable
 * side, which the page of a service without resumable streams never needs): the list of `import()`
 * edges below is a decision, like the list of public names.
 * Which folder may import which is lint's job (eslint.config.js).
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

/** The module file a relative specifier of `file` names. */
function resolve(file: string, specifier: string): string {
  const base = path.resolve(path.dirname(file), specifier).replace(/\.js$/, '');
  return [`${base}.ts`, `${base}.tsx`].find((candidate) => files.includes(candidate)) ?? base;
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
  return specifiers.map((specifier) => resolve(file, specifier));
}

/** The packages (bare specifiers) `file` imports, re-exports or loads with `import()`, types included. */
function packageImports(file: string): string[] {
  return packageSpecifiers(file, readFileSync(file, 'utf8'), { runtimeOnly: false });
}

/**
 * Where each framework may be imported (CONTRIBUTING.md, "Layout of the house"): React, React DOM
 * and TanStack's React binding only in the React binding, the components, the test kit's render
 * and the devtools; Vue and TanStack's Vue binding only in the Vue binding. Everything else,
 * src/query included, is framework-free (`@tanstack/query-core` is no framework).
 */
const FRAMEWORKS = [
  {
    name: 'React',
    packages: /^(react|react-dom)(\/|$)|^@tanstack\/react-query(\/|$)/,
    folders: ['src/react/', 'src/components/', 'src/testing/', 'src/devtools/'],
  },
  {
    name: 'Vue',
    packages: /^(vue|@vue\/[^/]+)(\/|$)|^@tanstack\/vue-query(\/|$)/,
    folders: ['src/vue/'],
  },
];

/** Each import of a framework from outside its folders, as `file -> package`. */
function misplacedFrameworkImports(importsByFile: Map<string, string[]>): string[] {
  return [...importsByFile].flatMap(([file, specifiers]) =>
    specifiers.flatMap((specifier) =>
      FRAMEWORKS.filter(
        ({ packages, folders }) =>
          packages.test(specifier) && !folders.some((folder) => file.startsWith(folder)),
      ).map(({ name }) => `${file} -> ${specifier} (${name})`),
    ),
  );
}

/** Whether an import or export declaration brings in types only: `import type`, or every name marked `type`. */
function typesOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) {
    if (node.isTypeOnly) return true;
    const clause = node.exportClause;
    return clause !== undefined && ts.isNamedExports(clause)
      ? clause.elements.length > 0 && clause.elements.every((element) => element.isTypeOnly)
      : false;
  }
  const clause = node.importClause;
  // `import 'x'` runs the module.
  if (clause === undefined) return false;
  if (clause.isTypeOnly) return true;
  if (clause.name !== undefined) return false;
  const bindings = clause.namedBindings;
  return bindings !== undefined && ts.isNamedImports(bindings)
    ? bindings.elements.every((element) => element.isTypeOnly)
    : false;
}

/**
 * The packages `text` (the module `file`) uses at run time: imported or re-exported for more than
 * types, loaded with `import()`, and `react/jsx-runtime` where a .tsx module writes JSX.
 */
function runtimePackageImports(file: string, text = readFileSync(file, 'utf8')): string[] {
  return packageSpecifiers(file, text, { runtimeOnly: true });
}

/**
 * The bare specifiers of `text` (the module `file`): its imports, re-exports and `import()` calls;
 * with `runtimeOnly`, without those that bring in types only, and with `react/jsx-runtime` for JSX.
 */
function packageSpecifiers(
  file: string,
  text: string,
  { runtimeOnly }: { runtimeOnly: boolean },
): string[] {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
  const specifiers = new Set<string>();
  const visit = (node: ts.Node): void => {
    const specifier =
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier !== undefined &&
      ts.isStringLiteral(node.moduleSpecifier) &&
      !(runtimeOnly && typesOnly(node))
        ? node.moduleSpecifier.text
        : ts.isCallExpression(node) &&
            node.expression.kind === ts.SyntaxKind.ImportKeyword &&
            node.arguments[0] !== undefined &&
            ts.isStringLiteral(node.arguments[0])
          ? node.arguments[0].text
          : runtimeOnly &&
              (ts.isJsxElement(node) || ts.isJsxSelfClosingElement(node) || ts.isJsxFragment(node))
            ? 'react/jsx-runtime'
            : undefined;
    if (specifier !== undefined && !specifier.startsWith('.')) specifiers.add(specifier);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [...specifiers];
}

/**
 * Each binding's folder and the packages that are its framework: TanStack's binding of the same
 * framework counts, since a hook over `useQuery` alone is a binding too.
 */
const BINDINGS = [
  { folder: 'src/react/', packages: /^react(\/|$)|^@tanstack\/react-query(\/|$)/ },
  { folder: 'src/vue/', packages: /^vue(\/|$)|^@tanstack\/vue-query(\/|$)/ },
];

/**
 * The modules of a binding's folder, its `index.ts` barrel aside, that use none of its framework's
 * packages at run time: framework-free code a second binding would have to copy.
 */
function bindingModulesWithoutFramework(runtimeImportsByFile: Map<string, string[]>): string[] {
  return [...runtimeImportsByFile]
    .filter(([file, specifiers]) =>
      BINDINGS.some(
        ({ folder, packages }) =>
          file.startsWith(folder) &&
          file !== `${folder}index.ts` &&
          !specifiers.some((specifier) => packages.test(specifier)),
      ),
    )
    .map(([file]) => file);
}

/** The modules `file` loads with `import()` anywhere in its code (relative ones, resolved). */
function dynamicImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] !== undefined
    ) {
      const argument = node.arguments[0];
      // A computed specifier would hide an edge from this test: named as such, it fails below.
      // A package (not `./…`) is named as it is written.
      found.push(
        !ts.isStringLiteral(argument)
          ? `(computed) ${argument.getText(source)}`
          : argument.text.startsWith('.')
            ? resolve(file, argument.text)
            : argument.text,
      );
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
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

/**
 * The `import()` edges src/ may hold: modules loaded on demand for a reason a user sees. The
 * devtools panel stays out of an app's first chunk and out of production (docs/protocol.md, "The
 * activity feed"); it may import its mount's types back, so this edge is left out of the circle
 * check. The hooks' resumable side (the page's one read of its tasks' logs, the short start) is
 * loaded once a service says it offers resumable streams, or a page reads a task's log it did not
 * start: the page of a 0.3 service never loads it (CONTRIBUTING.md, "Bundle size"). msw is an
 * optional peer, loaded by `taskwire/testing` only when it is there, so that the test kit loads in
 * an app without it.
 */
const ON_DEMAND = [
  'src/devtools/devtools-mount.tsx -> src/devtools/devtools-panel.tsx',
  'src/state/client-resumable-streams.ts -> src/state/resumable-side.ts',
  'src/testing/taskwire-handlers.ts -> msw',
];
const relative = (file: string) => path.relative(root, file);
/** A module as the lists name it: a file of the package relative to it, anything else as written. */
const shown = (target: string) => (path.isAbsolute(target) ? relative(target) : target);

describe('the house', () => {
  it('shows its parts in the folder list of src/', () => {
    const folders = readdirSync(sourceRoot, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    // `check` (taskwire/check) and `server` (taskwire/server) are 0.3's server side; `events` (the
    // event log the reference service and the proxy keep) is 0.4's.
    const optional = new Set(['check', 'events', 'server']);
    expect(folders.filter((folder) => !optional.has(folder))).toEqual([
      'client',
      'components',
      'devtools',
      'locales',
      'protocol',
      'query',
      'react',
      'reference',
      'state',
      'testing',
      'vue',
    ]);
  });

  it('has no import circle in src/, import() edges included', () => {
    const onDemand = (file: string, target: string) =>
      ON_DEMAND.includes(`${relative(file)} -> ${shown(target)}`);
    const graph = new Map(
      files.map((file) => [
        file,
        [
          ...staticImports(file),
          ...dynamicImports(file).filter((target) => !onDemand(file, target)),
        ],
      ]),
    );
    expect(graph.size).toBeGreaterThan(50);
    expect(importCircles(graph).map((circle) => circle.map(relative).sort())).toEqual([]);
    // It reads every module of src/ first: 6.5 s with two cores busy, past the 5 s default.
  }, 30_000);

  it('loads a module on demand only for a reason a user sees: the devtools panel, the resumable side, the optional msw', () => {
    const edges = files.flatMap((file) =>
      dynamicImports(file).map((target) => `${relative(file)} -> ${shown(target)}`),
    );
    expect(edges).toEqual(ON_DEMAND);
  });

  it('imports React only in src/react, src/components, src/testing and src/devtools, and Vue only in src/vue', () => {
    const importsByFile = new Map(files.map((file) => [relative(file), packageImports(file)]));
    const frameworkFree = [...importsByFile].filter(([file]) => file.startsWith('src/query/'));
    expect(frameworkFree.flatMap(([, specifiers]) => specifiers)).toContain('@tanstack/query-core');
    expect(misplacedFrameworkImports(importsByFile)).toEqual([]);
  });

  it('finds a framework imported outside its folders, import() included', () => {
    const importsByFile = new Map([
      ['src/state/a.ts', ['react', '@tanstack/query-core']],
      ['src/query/b.ts', ['@tanstack/react-query', 'vue']],
      ['src/vue/c.ts', ['vue', '@tanstack/vue-query', 'react-dom/client']],
      ['src/react/d.ts', ['react', '@tanstack/react-query', '@vue/reactivity']],
      ['src/components/e.tsx', ['react/jsx-runtime']],
    ]);
    expect(misplacedFrameworkImports(importsByFile)).toEqual([
      'src/state/a.ts -> react (React)',
      'src/query/b.ts -> @tanstack/react-query (React)',
      'src/query/b.ts -> vue (Vue)',
      'src/vue/c.ts -> react-dom/client (React)',
      'src/react/d.ts -> @vue/reactivity (Vue)',
    ]);
    // The msw of taskwire/testing is loaded with import(): the reader sees such imports too.
    expect(packageImports(path.join(sourceRoot, 'testing', 'taskwire-handlers.ts'))).toContain(
      'msw',
    );
  });

  it('holds bindings only in src/react and src/vue: every module but the barrel uses its framework at run time', () => {
    const bindingFiles = files
      .map(relative)
      .filter((file) => BINDINGS.some(({ folder }) => file.startsWith(folder)));
    expect(bindingFiles.length).toBeGreaterThan(10);
    const runtimeImportsByFile = new Map(
      bindingFiles.map((file) => [file, runtimePackageImports(path.join(root, file))]),
    );
    expect(bindingModulesWithoutFramework(runtimeImportsByFile)).toEqual([]);
  });

  it('finds a binding module that uses its framework for types only, or not at all', () => {
    const typesOnlyModule = [
      "import type { ReactNode } from 'react';",
      "import { type QueryKey } from '@tanstack/react-query';",
      "export type { Ref } from 'vue';",
      "import { taskKey } from '../query/index.js';",
    ].join('\n');
    expect(runtimePackageImports('src/react/a.ts', typesOnlyModule)).toEqual([]);
    expect(runtimePackageImports('src/react/b.tsx', 'export const B = () => <p />;')).toEqual([
      'react/jsx-runtime',
    ]);
    expect(
      runtimePackageImports(
        'src/vue/c.ts',
        "import * as vue from 'vue';\nimport { type Ref, toValue } from 'vue';",
      ),
    ).toEqual(['vue']);
    const runtimeImportsByFile = new Map([
      ['src/react/index.ts', []],
      ['src/react/keys.ts', ['@tanstack/query-core']],
      ['src/react/use-x.ts', ['@tanstack/react-query']],
      ['src/react/view.tsx', ['react/jsx-runtime']],
      ['src/react/vue-ish.ts', ['vue']],
      ['src/vue/index.ts', []],
      ['src/vue/poll.ts', []],
      ['src/vue/use-y.ts', ['@tanstack/vue-query']],
      ['src/state/z.ts', []],
    ]);
    expect(bindingModulesWithoutFramework(runtimeImportsByFile)).toEqual([
      'src/react/keys.ts',
      'src/react/vue-ish.ts',
      'src/vue/poll.ts',
    ]);
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
