import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import globals from 'globals';

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
    ...layers(
      'events',
      'client',
      'state',
      'query',
      'vue',
      'react',
      'components',
      'reference',
      'testing',
      'devtools',
      'locales',
    ),
    ...reactPackages,
    ...vuePackages,
  ]),
  ...boundary('src/client/**', 'src/client reaches only src/protocol', [
    ...layers(
      'events',
      'state',
      'query',
      'vue',
      'react',
      'components',
      'reference',
      'testing',
      'devtools',
      'locales',
    ),
    ...reactPackages,
    ...vuePackages,
  ]),
  ...boundary('src/state/**', 'src/state is framework-free: protocol and client only', [
    ...layers(
      'events',
      'query',
      'vue',
      'react',
      'components',
      'reference',
      'testing',
      'devtools',
      'locales',
    ),
    ...reactPackages,
    ...vuePackages,
  ]),
  ...boundary(
    'src/query/**',
    'src/query is framework-free: protocol, client, state and @tanstack/query-core only',
    [
      ...layers(
        'events',
        'vue',
        'react',
        'components',
        'reference',
        'testing',
        'devtools',
        'locales',
      ),
      ...bindingPackages,
    ],
  ),
  ...boundary('src/events/**', 'src/events (the event log) reaches only src/protocol', [
    ...layers(
      'client',
      'state',
      'query',
      'vue',
      'react',
      'components',
      'reference',
      'server',
      'check',
      'testing',
      'devtools',
      'locales',
    ),
    ...reactPackages,
    ...vuePackages,
  ]),
  ...boundary('src/reference/**', 'src/reference reaches only src/protocol and src/events', [
    ...layers(
      'client',
      'state',
      'query',
      'vue',
      'react',
      'components',
      'testing',
      'devtools',
      'locales',
    ),
    ...reactPackages,
    ...vuePackages,
  ]),
  ...boundary(
    'src/server/**',
    'src/server (taskwire/server) reaches only src/protocol and src/events',
    [
      ...layers(
        'client',
        'state',
        'query',
        'vue',
        'react',
        'components',
        'reference',
        'testing',
        'devtools',
        'locales',
      ),
      ...reactPackages,
      ...vuePackages,
    ],
  ),
  ...boundary(
    'src/check/**',
    'src/check (taskwire/check) reaches only src/protocol and src/client',
    [
      ...layers(
        'events',
        'state',
        'query',
        'vue',
        'react',
        'components',
        'reference',
        'server',
        'testing',
        'devtools',
        'locales',
      ),
      ...reactPackages,
      ...vuePackages,
    ],
  ),
  ...boundary('src/components/**', 'components render; they never import the client or the hooks', [
    ...layers(
      'events',
      'client',
      'query',
      'vue',
      'react',
      'reference',
      'testing',
      'devtools',
      'locales',
    ),
    ...vuePackages,
  ]),
  ...boundary('src/react/**', 'nothing of the package imports taskwire/testing; React never Vue', [
    ...layers('events', 'vue', 'testing', 'devtools', 'locales'),
    ...vuePackages,
  ]),
  ...boundary(
    'src/vue/**',
    'taskwire/vue reaches protocol, client, state and query, never React or the components',
    [
      ...layers('events', 'react', 'components', 'reference', 'testing', 'devtools', 'locales'),
      ...bindingPackages.filter((name) => !vuePackages.includes(name)),
    ],
  ),
  ...boundary('src/*.{ts,tsx}', 'nothing of the package imports taskwire/testing', [
    './testing/*',
    './devtools/*',
    './locales/*',
    './vue/*',
    ...vuePackages,
  ]),
  ...boundary('src/locales/**', "a locale is data: it reaches only the components' messages", [
    ...layers(
      'protocol',
      'events',
      'client',
      'state',
      'query',
      'vue',
      'react',
      'reference',
      'testing',
      'devtools',
    ),
    ...reactPackages,
    ...vuePackages,
  ]),
  ...boundary(
    'src/devtools/**',
    'taskwire/devtools never reaches the reference service, testing or Vue',
    [...layers('events', 'reference', 'testing', 'locales', 'vue'), ...vuePackages],
  ),
  ...boundary(
    'src/testing/**',
    'src/testing reaches protocol, client and reference; React only in render-with-taskwire.tsx',
    [
      ...layers('events', 'state', 'query', 'vue', 'react', 'components'),
      ...reactPackages,
      ...vuePackages,
      '@testing-library/*',
    ],
    ['src/testing/render-with-taskwire.tsx'],
  ),
  ...boundary(
    'src/testing/render-with-taskwire.tsx',
    'render-with-taskwire.tsx adds only the provider of src/react to what src/testing reaches',
    [...layers('state', 'query', 'vue', 'components'), ...vuePackages],
  ),
);
