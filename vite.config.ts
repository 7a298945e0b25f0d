/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Test projects: `node` (no DOM: core, client, reference service), `jsdom` (React and the client
// again, to prove it runs with DOM globals too). The browser project is added with the components.
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
            'test/core/**/*.test.ts',
            'test/reference/**/*.test.ts',
            'test/e2e/**/*.test.ts',
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
            'test/core/client/**/*.test.ts',
            'test/react/**/*.test.{ts,tsx}',
            'test/components/**/*.test.{ts,tsx}',
          ],
        },
      },
    ],
  },
});
