import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import globals from 'globals';

const reactPackages = ['react', 'react-dom', 'react/*', 'react-dom/*', '@tanstack/*'];

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
  // The house's boundaries (CONTRIBUTING.md, "Layout of the house"): the protocol imports nothing of the package; the client
  // reaches only the protocol; the event log (src/events) reaches only the protocol, and only the
  // reference service and the server proxy, which both keep one, reach it; the state machines
  // reach the client and the protocol; React lives in react/ and components/ alone, and components never touch the transport.
  // taskwire/testing reaches the protocol, the client and the reference service, React only in
  // render-with-taskwire.tsx (with the provider of react/), and nothing else imports it. A locale
  // (taskwire/locales/*) is data: it reaches only the components' messages. taskwire/devtools sits on
  // top (client, state, react, components) and nothing of the package imports it.
  ...boundary('src/protocol/**', 'src/protocol imports nothing else of the package', [
    ...layers(
      'events',
      'client',
      'state',
      'react',
      'components',
      'reference',
      'testing',
      'devtools',
      'locales',
    ),
    ...reactPackages,
  ]),
  ...boundary('src/client/**', 'src/client reaches only src/protocol', [
    ...layers(
      'events',
      'state',
      'react',
      'components',
      'reference',
      'testing',
      'devtools',
      'locales',
    ),
    ...reactPackages,
  ]),
  ...boundary('src/state/**', 'src/state is framework-free: protocol and client only', [
    ...layers('events', 'react', 'components', 'reference', 'testing', 'devtools', 'locales'),
    ...reactPackages,
  ]),
  ...boundary('src/events/**', 'src/events (the event log) reaches only src/protocol', [
    ...layers(
      'client',
      'state',
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
  ]),
  ...boundary('src/reference/**', 'src/reference reaches only src/protocol and src/events', [
    ...layers('client', 'state', 'react', 'components', 'testing', 'devtools', 'locales'),
    ...reactPackages,
  ]),
  ...boundary(
    'src/server/**',
    'src/server (taskwire/server) reaches only src/protocol and src/events',
    [
      ...layers(
        'client',
        'state',
        'react',
        'components',
        'reference',
        'testing',
        'devtools',
        'locales',
      ),
      ...reactPackages,
    ],
  ),
  ...boundary(
    'src/check/**',
    'src/check (taskwire/check) reaches only src/protocol and src/client',
    [
      ...layers(
        'events',
        'state',
        'react',
        'components',
        'reference',
        'server',
        'testing',
        'devtools',
        'locales',
      ),
      ...reactPackages,
    ],
  ),
  ...boundary('src/components/**', 'components render; they never import the client or the hooks', [
    ...layers('events', 'client', 'react', 'reference', 'testing', 'devtools', 'locales'),
  ]),
  ...boundary('src/react/**', 'nothing of the package imports taskwire/testing', [
    ...layers('events', 'testing', 'devtools', 'locales'),
  ]),
  ...boundary('src/*.{ts,tsx}', 'nothing of the package imports taskwire/testing', [
    './testing/*',
    './devtools/*',
    './locales/*',
  ]),
  ...boundary('src/locales/**', "a locale is data: it reaches only the components' messages", [
    ...layers('protocol', 'events', 'client', 'state', 'react', 'reference', 'testing', 'devtools'),
    ...reactPackages,
  ]),
  ...boundary(
    'src/devtools/**',
    'taskwire/devtools never reaches the reference service or testing',
    [...layers('events', 'reference', 'testing', 'locales')],
  ),
  ...boundary(
    'src/testing/**',
    'src/testing reaches protocol, client and reference; React only in render-with-taskwire.tsx',
    [...layers('events', 'state', 'react', 'components'), ...reactPackages, '@testing-library/*'],
    ['src/testing/render-with-taskwire.tsx'],
  ),
  ...boundary(
    'src/testing/render-with-taskwire.tsx',
    'render-with-taskwire.tsx adds only the provider of src/react to what src/testing reaches',
    [...layers('state', 'components')],
  ),
);
