import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import globals from 'globals';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const reactPackages = ['react', 'react-dom', 'react/*', 'react-dom/*', '@tanstack/*'];
const vuePackages = ['vue', 'vue/*', '@vue/*', '@tanstack/vue-query'];
/** The frameworks and their TanStack bindings; `@tanstack/query-core` is not one of them. */
const bindingPackages = [
  'react',
  'react-dom',
  'react/*',
  'react-dom/*',
  '@tanstack/react-query',
  ...vuePackages,
];

/** The folders of src/, read from the tree: the layers of the house. */
const allLayers = readdirSync(join(import.meta.dirname, 'src'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * Every layer but `allowed`: a rule names its own folder and what it may reach, and forbids every
 * other folder of src/, one added later too.
 */
function allLayersExcept(...allowed) {
  return allLayers.filter((folder) => !allowed.includes(folder));
}

/** Import patterns that reach into the named folders of src/ from a sibling folder. */
function layers(...folders) {
  return folders.flatMap((folder) => [
    `../${folder}/*`,
    `../../${folder}/*`,
    `../../../${folder}/*`,
  ]);
}

/** Forbids `files` (but `ignores`) to import what matches `patterns`. */
function boundary(files, message, patterns, ignores = []) {
  return [
    {
      files: [files],
      ignores,
      rules: {
        'no-restricted-imports': [
          'error',
          { patterns: [{ group: patterns, message: `${message}.` }] },
        ],
      },
    },
  ];
}

export default tseslint.config(
  { ignores: ['dist', 'storybook-static', 'coverage', 'node_modules'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'react-hooks/exhaustive-deps': 'error',
      ...jsxA11y.flatConfigs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  // The rules of React's hooks are React's: Vue's composables run once, in setup.
  {
    files: ['src/vue/**', 'test/vue/**', 'test/support/vue-page.ts', 'test/types/vue-*.ts'],
    rules: Object.fromEntries(
      Object.keys(reactHooks.configs.recommended.rules).map((rule) => [rule, 'off']),
    ),
  },
  // The house's boundaries (CONTRIBUTING.md, "Layout of the house"): the protocol imports nothing of the package; the client
  // reaches only the protocol; the event log (src/events) reaches only the protocol, and only the
  // reference service and the server proxy, which both keep one, reach it; the state machines
  // reach the client and the protocol; the query layer reaches those three and @tanstack/query-core,
  // never a framework; React lives in react/ and components/ alone, Vue in vue/ alone, and components never touch the transport.
  // taskwire/testing reaches the protocol, the client and the reference service, React only in
  // render-with-taskwire.tsx (with the provider of react/), and nothing else imports it. A locale
  // (taskwire/locales/*) is data: it reaches only the components' messages. taskwire/devtools sits on
  // top (client, state, react, components) and nothing of the package imports it.
  ...boundary('src/protocol/**', 'src/protocol imports nothing else of the package', [
    ...layers(...allLayersExcept('protocol')),
    ...reactPackages,
    ...vuePackages,
  ]),
  ...boundary('src/client/**', 'src/client reaches only src/protocol', [
    ...layers(...allLayersExcept('client', 'protocol')),
    ...reactPackages,
    ...vuePackages,
  ]),
  ...boundary('src/state/**', 'src/state is framework-free: protocol and client only', [
    ...layers(...allLayersExcept('state', 'protocol', 'client')),
    ...reactPackages,
    ...vuePackages,
  ]),
  ...boundary(
    'src/query/**',
    'src/query is framework-free: protocol, client, state and @tanstack/query-core only',
    [...layers(...allLayersExcept('query', 'protocol', 'client', 'state')), ...bindingPackages],
  ),
  ...boundary('src/events/**', 'src/events (the event log) reaches only src/protocol', [
    ...layers(...allLayersExcept('events', 'protocol')),
    ...reactPackages,
    ...vuePackages,
  ]),
  ...boundary('src/reference/**', 'src/reference reaches only src/protocol and src/events', [
    ...layers(...allLayersExcept('reference', 'protocol', 'events')),
    ...reactPackages,
    ...vuePackages,
  ]),
  ...boundary(
    'src/server/**',
    'src/server (taskwire/server) reaches only src/protocol and src/events',
    [
      ...layers(...allLayersExcept('server', 'protocol', 'events')),
      ...reactPackages,
      ...vuePackages,
    ],
  ),
  ...boundary(
    'src/check/**',
    'src/check (taskwire/check) reaches only src/protocol and src/client',
    [
      ...layers(...allLayersExcept('check', 'protocol', 'client')),
      ...reactPackages,
      ...vuePackages,
    ],
  ),
  ...boundary('src/components/**', 'components render; they never import the client or the hooks', [
    ...layers(...allLayersExcept('components', 'protocol', 'state')),
    ...vuePackages,
  ]),
  ...boundary(
    'src/react/**',
    'src/react reaches protocol, client, state, query and components: never Vue or taskwire/testing',
    [
      ...layers(...allLayersExcept('react', 'protocol', 'client', 'state', 'query', 'components')),
      ...vuePackages,
    ],
  ),
  ...boundary(
    'src/vue/**',
    'taskwire/vue reaches protocol, client, state and query, never React or the components',
    [
      ...layers(...allLayersExcept('vue', 'protocol', 'client', 'state', 'query')),
      ...bindingPackages.filter((name) => !vuePackages.includes(name)),
    ],
  ),
  ...boundary(
    'src/*.{ts,tsx}',
    'taskwire reaches protocol, client, state, query, react and components: never taskwire/testing',
    [
      ...allLayersExcept('protocol', 'client', 'state', 'query', 'react', 'components').map(
        (folder) => `./${folder}/*`,
      ),
      ...vuePackages,
    ],
  ),
  ...boundary('src/locales/**', "a locale is data: it reaches only the components' messages", [
    ...layers(...allLayersExcept('locales', 'components')),
    ...reactPackages,
    ...vuePackages,
  ]),
  ...boundary(
    'src/devtools/**',
    'taskwire/devtools sits on protocol, client, state, query, react and components only',
    [
      ...layers(
        ...allLayersExcept(
          'devtools',
          'protocol',
          'client',
          'state',
          'query',
          'react',
          'components',
        ),
      ),
      ...vuePackages,
    ],
  ),
  ...boundary(
    'src/testing/**',
    'src/testing reaches protocol, client and reference; React only in render-with-taskwire.tsx',
    [
      ...layers(...allLayersExcept('testing', 'protocol', 'client', 'reference')),
      ...reactPackages,
      ...vuePackages,
      '@testing-library/*',
    ],
    ['src/testing/render-with-taskwire.tsx'],
  ),
  ...boundary(
    'src/testing/render-with-taskwire.tsx',
    'render-with-taskwire.tsx adds only the provider of src/react to what src/testing reaches',
    [
      ...layers(...allLayersExcept('testing', 'protocol', 'client', 'reference', 'react')),
      ...vuePackages,
    ],
  ),
);
