/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { playwright } from '@vitest/browser-playwright';
import { storybookTest } from '@storybook/addon-vitest/vitest-plugin';
import { CHROMIUM_ARGS, findChromium } from './scripts/ensure-chromium.mjs';

// The browser projects run in Debian's Chromium, found the way `npm test` checks for it
// (scripts/ensure-chromium.mjs), never in a browser Playwright would download.
function chromium() {
  return {
    enabled: true,
    headless: true,
    // Each project gets a provider object of its own; sharing one between projects breaks launch.
    provider: playwright({
      launchOptions: { executablePath: findChromium(), args: [...CHROMIUM_ARGS] },
    }),
    instances: [{ browser: 'chromium' as const }],
    // A failing test would otherwise leave PNGs in the tree; nothing binary is committed.
    screenshotFailures: false,
  };
}

// Pre-bundled up front, or Vite finds them mid-run and reloads the page under a running test.
const browserDependencies = [
  'react',
  'react-dom',
  'react-dom/client',
  'react-dom/server',
  'react/jsx-dev-runtime',
  'react/jsx-runtime',
  '@testing-library/react',
  '@testing-library/dom',
  '@testing-library/user-event',
  '@testing-library/jest-dom/vitest',
  '@tanstack/react-query',
  'zod/mini',
  'axe-core',
  'msw',
  'msw/browser',
];

// Test projects: `node` (no DOM: protocol, client, state, reference service), `jsdom` (React and the client
// again, to prove it runs with DOM globals too), `vue` (the composables of taskwire/vue, in jsdom),
// `browser` (components in Chromium) and `storybook` (every story in Chromium).
export default defineConfig({
  plugins: [react()],
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'test/protocol/**/*.test.ts',
            'test/client/**/*.test.ts',
            'test/state/**/*.test.ts',
            'test/reference/**/*.test.ts',
            'test/server/**/*.test.ts',
            'test/events/**/*.test.ts',
            'test/check/**/*.test.ts',
            'test/e2e/**/*.test.ts',
            'test/docs/**/*.test.ts',
            'test/architecture/**/*.test.ts',
            'test/testing/**/*.test.ts',
          ],
        },
      },
      {
        extends: true,
        test: {
          name: 'jsdom',
          environment: 'jsdom',
          setupFiles: ['test/setup-dom.ts'],
          include: [
            'test/client/**/*.test.ts',
            'test/react/**/*.test.{ts,tsx}',
            'test/components/**/*.test.{ts,tsx}',
            'test/devtools/**/*.test.{ts,tsx}',
            'test/testing/**/*.test.tsx',
          ],
        },
      },
      {
        extends: true,
        test: {
          name: 'vue',
          environment: 'jsdom',
          setupFiles: ['test/setup-vue.ts'],
          include: ['test/vue/**/*.test.ts'],
        },
      },
      {
        extends: true,
        optimizeDeps: { include: browserDependencies },
        test: {
          name: 'browser',
          setupFiles: ['test/setup-dom.ts'],
          include: ['test/browser/**/*.test.tsx', 'test/testing/guide/**/*.test.tsx'],
          browser: chromium(),
        },
      },
      {
        extends: true,
        optimizeDeps: { include: browserDependencies },
        plugins: [storybookTest({ configDir: '.storybook' })],
        test: {
          name: 'storybook',
          browser: chromium(),
        },
      },
    ],
  },
});
