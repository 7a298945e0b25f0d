/**
 * "Testing your components" (docs/testing-your-components.md): the app's screen tested only
 * through `taskwire/testing`, as a user of the package would: the real hooks, the real client and
 * the reference service in-process, the network's trouble put in by `withFaults` and what reached
 * the service read from `recordRequests`. No mock of anything. Runs in jsdom and in Chromium.
 */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { createReferenceService, type ReferenceService } from '../../../src/reference/index.js';
import { recordRequests, renderWithTaskwire, withFaults } from '../../../src/testing/index.js';
import { ImagesOrder, RenderPanel } from './render-panel.js';

const services: ReferenceService[] = [];

/** The demo tasks at half their length, every request recorded; closed after each test. */
function demoService() {
  const service = createReferenceService({ timeScale: 0.5 });
  services.push(service);
  return recordRequests(service);
}

afterEach(async () => {
  await Promise.all(services.splice(0).map((service) => service.close()));
});

const slow = { timeout: 5000 };

describe('RenderPanel', () => {
  it('shows the progress of the render, then the video', async () => {
    renderWithTaskwire(<RenderPanel />, { service: demoService() });
    await userEvent.click(screen.getByRole('button', { name: 'Render video' }));
    expect(await screen.findByRole('progressbar')).toBeInTheDocument();
    const link = await screen.findByRole('link', { name: 'Watch the video' }, slow);
    expect(link.getAttribute('href')).toMatch(/\/video\.mp4$/);
  });

  it('reads the rest of a dropped stream from its log, without starting the render again', async () => {
    const service = demoService();
    renderWithTaskwire(<RenderPanel />, {
      service: withFaults(service, [{ endpoint: 'stream', cutAfterEvents: 3 }]),
    });
    await userEvent.click(screen.getByRole('button', { name: 'Render video' }));
    // After the break the rest of the stream is read from the task's log (the reference service
    // offers resumable streams), after the last event the page had: the bar goes on as running.
    await screen.findByRole('link', { name: 'Watch the video' }, slow);
    expect(screen.queryByText('Reconnecting…')).not.toBeInTheDocument();
    const requests = service.requests.map((request) => `${request.method} ${request.path}`);
    expect(requests).toContain('POST /workflows/events');
    expect(requests.filter((request) => request.endsWith('/stream'))).toEqual([
      'POST /workflows/render-video/stream',
    ]);
  }, 10_000);
});

describe('ImagesOrder', () => {
  it('shows the price before anything is submitted', async () => {
    const service = demoService();
    renderWithTaskwire(<ImagesOrder />, { service });
    expect(await screen.findByRole('button', { name: 'Order for 5 credits' }, slow)).toBeEnabled();
    expect(service.requests.map((request) => request.endpoint)).toEqual(['options']);
  });

  it("orders at the quoted price, retrying Submit after a 429's Retry-After", async () => {
    const service = withFaults(demoService(), [
      { endpoint: 'submit', request: 1, status: 429, retryAfter: 1 },
    ]);
    renderWithTaskwire(<ImagesOrder />, { service });
    const order = await screen.findByRole('button', { name: 'Order for 5 credits' }, slow);
    await userEvent.click(order);
    expect(screen.getByRole('button', { name: 'Ordering…' })).toBeDisabled();
    const ready = await screen.findByRole('status', {}, slow);
    expect(ready).toHaveTextContent('Ready: 2 images');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  }, 10_000);

  it('makes one task, charged once, when the answer to Submit is lost', async () => {
    // Recorded behind the fault: every Submit the service answered, the lost one included.
    const served = demoService();
    const service = withFaults(served, [{ endpoint: 'submit', request: 1, lostAnswer: true }]);
    renderWithTaskwire(<ImagesOrder />, { service });
    await userEvent.click(await screen.findByRole('button', { name: 'Order for 5 credits' }, slow));
    const images = screen.getByRole('region', { name: 'Images' });
    expect(await within(images).findByRole('status', {}, slow)).toHaveTextContent(
      'Ready: 2 images',
    );
    const submits = served.requests.filter((request) => request.endpoint === 'submit');
    expect(submits).toHaveLength(2);
    expect(submits[1]?.idempotencyKey).toBe(submits[0]?.idempotencyKey);
    expect(submits[1]?.answer?.body).toEqual(submits[0]?.answer?.body);
  }, 10_000);
});
