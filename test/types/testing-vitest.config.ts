// vitest.config.ts: the components' tests in jsdom, with Testing Library's matchers and cleanup.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // A DOM, and a `window`: without one TanStack Query takes the runtime for a server and never polls.
    environment: 'jsdom',
    setupFiles: ['./vitest.setup.ts'],
  },
});
