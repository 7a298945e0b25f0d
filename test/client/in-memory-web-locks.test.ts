/**
 * The Web Locks stand-in of test/support behaves as the platform does in the ways the package relies
 * on (the same cases run against Chromium's own `navigator.locks` in test/browser/web-locks.test.tsx).
 */
import { describe } from 'vitest';
import { createInMemoryWebLocks } from '../support/in-memory-web-locks.js';
import { webLocksCases } from '../support/web-locks-cases.js';

describe('the in-memory Web Locks stand-in', () => {
  webLocksCases(
    () => {
      const space = createInMemoryWebLocks();
      return { a: space.tab('a'), b: space.tab('b'), closeTab: (id) => space.closeTab(id) };
    },
    { canCloseTab: true },
  );
});
