// vitest.setup.ts: Testing Library's matchers for Vitest, and its cleanup after each test.
import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// With globals off, Testing Library does not unmount between tests by itself.
afterEach(() => {
  cleanup();
});
