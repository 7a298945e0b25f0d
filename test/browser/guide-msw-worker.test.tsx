/**
 * The guide's screen over Mock Service Worker in Chromium: msw's browser worker catches the page's
 * `fetch` (test/testing/guide/screen-over-msw.tsx holds the tests; Vitest's browser server serves
 * the worker's script, `/mockServiceWorker.js`, from the installed msw).
 */
import { setupWorker } from 'msw/browser';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { API, describeScreenOverMsw } from '../testing/guide/screen-over-msw.js';

const worker = setupWorker();
beforeAll(async () => {
  await worker.start({
    quiet: true,
    // The test runner's own requests pass; one to the service that no handler took fails.
    onUnhandledRequest: (request, print) => {
      if (request.url.startsWith(API)) print.error();
    },
  });
});
afterEach(() => worker.resetHandlers());
afterAll(() => worker.stop());

describeScreenOverMsw(worker);
