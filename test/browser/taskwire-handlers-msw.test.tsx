/**
 * `taskwireHandlers` under Mock Service Worker's browser worker (`setupWorker`) in Chromium: the
 * page's own `fetch`, its requests to `http://taskwire.test` caught by the service worker and
 * answered by the reference service running in the page
 * (test/testing/taskwire-handlers-cases.ts holds the tests both environments share). The worker's
 * script, `/mockServiceWorker.js`, is served by Vitest's browser server from the installed msw.
 */
import { setupWorker } from 'msw/browser';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { TaskwireError } from '../../src/client/index.js';
import { BASE, describeTaskwireHandlers } from '../testing/taskwire-handlers-cases.js';

const worker = setupWorker();
beforeAll(async () => {
  await worker.start({
    quiet: true,
    // The test runner's own module requests pass; one to the service that no handler took fails.
    onUnhandledRequest: (request, print) => {
      if (new URL(request.url).origin === BASE) print.error();
    },
  });
});
afterEach(() => worker.resetHandlers());
afterAll(() => worker.stop());

describeTaskwireHandlers('taskwireHandlers under setupWorker', worker, (serve) => {
  it("answers the page through msw's own worker script", () => {
    // The page is controlled by msw's worker script, so every answer in this file went through it.
    expect(navigator.serviceWorker.controller?.scriptURL).toBe(
      new URL('/mockServiceWorker.js', location.href).href,
    );
  });

  it('hands the client a 429 with its Retry-After across origins', async () => {
    const { client } = serve([{ endpoint: 'submit', status: 429, retryAfter: 2 }]);
    const refused = await client.submit('echo', { message: 'hi' }).catch((error: unknown) => error);
    expect(refused).toMatchObject({
      status: 429,
      reason: 'RATE_LIMITED',
      retryAfterMs: 2000,
    } satisfies Partial<TaskwireError>);
  });
});
