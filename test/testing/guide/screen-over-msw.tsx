/**
 * "Testing your components", with Mock Service Worker: the same screen, its client the app's own
 * (its real base URL, the global `fetch`), and the service behind msw through `taskwireHandlers`.
 * The tests are written once here and run twice: in jsdom under msw's Node server
 * (test/testing/guide-msw-server.test.tsx) and in Chromium under msw's browser worker
 * (test/browser/guide-msw-worker.test.tsx), which differ only in how msw starts.
 */
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RequestHandler } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { createTaskClient } from '../../../src/client/index.js';
import {
  createReferenceService,
  DEMO_CLIENT_TOKEN,
  DEMO_USER_TOKEN,
  type ReferenceService,
} from '../../../src/reference/index.js';
import {
  recordRequests,
  renderWithTaskwire,
  taskwireHandlers,
  withFaults,
  type Fault,
} from '../../../src/testing/index.js';
import { ImagesOrder, RenderPanel } from './render-panel.js';

/** Where the app sends its requests in production; msw answers them in the test. */
export const API = 'https://api.example.test/taskwire';

/** What both `setupServer()` and `setupWorker()` return, as far as these tests use it. */
interface MockNetwork {
  use(...handlers: RequestHandler[]): void;
}

const services: ReferenceService[] = [];

/** Registers the screen's tests against `network`, which the calling file starts and stops. */
export function describeScreenOverMsw(network: MockNetwork): void {
  /** The demo tasks behind msw at `API`, with `faults`; what the service served is recorded. */
  function serve(faults: Fault[] = []) {
    const reference = createReferenceService({ timeScale: 0.5, basePath: '/taskwire' });
    services.push(reference);
    const served = recordRequests(reference);
    network.use(...taskwireHandlers(withFaults(served, faults), { baseUrl: API }));
    // The app's own client: no `fetch` option, so msw sees its requests.
    const client = createTaskClient({
      baseUrl: API,
      userToken: DEMO_USER_TOKEN,
      clientToken: DEMO_CLIENT_TOKEN,
    });
    return { served, client };
  }

  afterEach(async () => {
    await Promise.all(services.splice(0).map((service) => service.close()));
  });

  const slow = { timeout: 5000 };

  describe('the screen over Mock Service Worker', () => {
    it('shows the price before anything is submitted', async () => {
      const { served, client } = serve();
      renderWithTaskwire(<ImagesOrder />, { client });
      expect(
        await screen.findByRole('button', { name: 'Order for 5 credits' }, slow),
      ).toBeEnabled();
      expect(served.requests.map((request) => request.endpoint)).toEqual(['options']);
    });

    it("orders after a 429's Retry-After, and once only when an answer is lost", async () => {
      const { served, client } = serve([
        { endpoint: 'submit', request: 1, status: 429, retryAfter: 1 },
        { endpoint: 'submit', request: 2, lostAnswer: true },
      ]);
      renderWithTaskwire(<ImagesOrder />, { client });
      await userEvent.click(
        await screen.findByRole('button', { name: 'Order for 5 credits' }, slow),
      );
      expect(await screen.findByRole('status', {}, slow)).toHaveTextContent('Ready: 2 images');
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      // The 429 was answered without serving; the lost Submit and its retry made one task.
      const submits = served.requests.filter((request) => request.endpoint === 'submit');
      expect(submits).toHaveLength(2);
      expect(submits[1]?.idempotencyKey).toBe(submits[0]?.idempotencyKey);
      expect(submits[1]?.answer?.body).toEqual(submits[0]?.answer?.body);
    }, 15_000);

    it('reads the rest of a dropped stream from its log, without starting the render again', async () => {
      const { served, client } = serve([{ endpoint: 'stream', cutAfterEvents: 3 }]);
      renderWithTaskwire(<RenderPanel />, { client });
      await userEvent.click(screen.getByRole('button', { name: 'Render video' }));
      // After the break the rest of the stream is read from the task's log (the reference service
      // offers resumable streams), after the last event the page had: the bar goes on as running.
      await screen.findByRole('link', { name: 'Watch the video' }, slow);
      expect(screen.queryByText('Reconnecting…')).not.toBeInTheDocument();
      const requests = served.requests.map((request) => `${request.method} ${request.path}`);
      expect(requests).toContain('POST /taskwire/workflows/events');
      expect(requests.filter((request) => request.endsWith('/stream'))).toEqual([
        'POST /taskwire/workflows/render-video/stream',
      ]);
    }, 10_000);
  });
}
