/**
 * "Testing your components" (README): the app's screen tested only through `taskwire/testing`, as
 * a user of the package would: the real hooks, the real client and the reference service
 * in-process, with the network's trouble put in by `withFaults`. No mock of anything.
 */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { createReferenceService, type ReferenceService } from '../../../src/reference/index.js';
import { renderWithTaskwire, withFaults } from '../../../src/testing/index.js';
import { ImagesOrder, RenderPanel } from './render-panel.js';

const services: ReferenceService[] = [];

/** The demo tasks at half their length; closed after each test. */
function demoService(): ReferenceService {
  const service = createReferenceService({ timeScale: 0.5 });
  services.push(service);
  return service;
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

  it('recovers a dropped stream by polling, without starting the render again', async () => {
    const posts: string[] = [];
    const faulty = withFaults(demoService(), [{ endpoint: 'stream', cutAfterEvents: 3 }]);
    const service = {
      fetch(request: Request) {
        if (request.method === 'POST') posts.push(new URL(request.url).pathname);
        return faulty.fetch(request);
      },
    };
    renderWithTaskwire(<RenderPanel />, { service });
    await userEvent.click(screen.getByRole('button', { name: 'Render video' }));
    expect(await screen.findByText('Reconnecting…')).toBeInTheDocument();
    await screen.findByRole('link', { name: 'Watch the video' }, slow);
    expect(posts).toEqual(['/workflows/render-video/stream']);
  }, 10_000);
});

describe('ImagesOrder', () => {
  it("orders at the quoted price, retrying Submit after a 429's Retry-After", async () => {
    const service = withFaults(demoService(), [
      { endpoint: 'submit', request: 1, status: 429, retryAfter: 1 },
    ]);
    renderWithTaskwire(<ImagesOrder />, { service });
    const order = await screen.findByRole('button', { name: 'Order for 5 credits' });
    await userEvent.click(order);
    expect(screen.getByRole('button', { name: 'Ordering…' })).toBeDisabled();
    const ready = await screen.findByRole('status', {}, slow);
    expect(ready).toHaveTextContent('Ready: 2 images');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  }, 10_000);

  it('makes one task when the answer to Submit is lost', async () => {
    const inner = demoService();
    const submitted: string[] = [];
    // Every Submit answer the service gave, the lost one included.
    const recording = {
      async fetch(request: Request) {
        const response = await inner.fetch(request);
        if (new URL(request.url).pathname.endsWith('/submit')) {
          const body = (await response.clone().json()) as { response: { id: string } };
          submitted.push(body.response.id);
        }
        return response;
      },
    };
    const service = withFaults(recording, [{ endpoint: 'submit', request: 1, lostAnswer: true }]);
    renderWithTaskwire(<ImagesOrder />, { service });
    await userEvent.click(await screen.findByRole('button', { name: 'Order for 5 credits' }));
    const images = screen.getByRole('region', { name: 'Images' });
    expect(await within(images).findByRole('status', {}, slow)).toHaveTextContent(
      'Ready: 2 images',
    );
    expect(submitted).toHaveLength(2);
    expect(new Set(submitted).size).toBe(1);
  }, 10_000);
});
