/**
 * The Web Locks cases that the in-memory stand-in (test/support/in-memory-web-locks.ts) passes, run
 * against Chromium's own `navigator.locks`, so the stand-in is held to the platform.
 */
import { describe } from 'vitest';
import { webLocksCases } from '../support/web-locks-cases.js';

describe("Chromium's navigator.locks", () => {
  // One tab here: both managers are the page's own, which is one lock space as two tabs would share.
  webLocksCases(() => ({ a: navigator.locks, b: navigator.locks }));
});
