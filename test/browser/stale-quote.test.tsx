/**
 * The quote is the price, in real Chromium (docs/protocol.md, "The hooks"): after a change of
 * params the old price shows as updating and the start button is disabled until the quote for the
 * new params arrives; a quick real click in that window starts nothing. The real client and the
 * reference service in-process; the quote's answer held by the test, so the window is an event,
 * not a guess at timing.
 */
import '../../src/styles.css';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';
import { createReferenceService, demoTaskSchemas } from '../../src/reference/index.js';
import { recordRequests, renderWithTaskwire } from '../../src/testing/index.js';
import { holdAnswers } from '../support/hold-answers.js';
import { PriceThenStart } from '../support/price-then-start.js';

const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()));
});

it('shows the old price as updating and starts nothing on a quick click until the new params are priced', async () => {
  const reference = createReferenceService({ timeScale: 0.01 });
  closing.push(() => reference.close());
  const quotes = holdAnswers(reference, 'options');
  const service = recordRequests(quotes.service);
  const { container } = renderWithTaskwire(<PriceThenStart />, {
    service,
    clientConfig: { tasks: demoTaskSchemas },
  });
  const sent = (endpoint: string) =>
    service.requests
      .filter((request) => request.endpoint === endpoint)
      .map((request) => (request.body as { params: unknown }).params);
  const preview = container.querySelector('.taskwire-cost');
  await screen.findByText('2.5 credits');
  const generate = screen.getByRole('button', { name: 'Generate' });
  expect(generate).toBeEnabled();

  quotes.hold();
  await userEvent.fill(screen.getByLabelText('Number of images'), '3');
  // A quick click, as a user makes it: a real one, at the button, the button's state unchecked.
  await userEvent.click(generate, { force: true });
  expect(preview).toHaveAttribute('data-state', 'updating');
  expect(preview).toHaveAttribute('aria-busy', 'true');
  expect(screen.getByText('2.5 credits')).toBeVisible();
  expect(screen.getByText('Updating…')).toBeVisible();
  expect(generate).toBeDisabled();

  // The quote for 3 images is on its way, its answer held: still updating, a click still nothing.
  await waitFor(() =>
    expect(sent('options')).toContainEqual({ prompt: 'a lighthouse at dusk', count: 3 }),
  );
  await userEvent.click(generate, { force: true });
  expect(generate).toBeDisabled();
  expect(sent('stream')).toEqual([]);
  expect(sent('submit')).toEqual([]);

  quotes.release();
  await screen.findByText('7.5 credits');
  await waitFor(() => expect(preview).toHaveAttribute('data-state', 'priced'));
  expect(preview).toHaveAttribute('aria-busy', 'false');
  expect(generate).toBeEnabled();
  await userEvent.click(generate);
  await waitFor(() =>
    expect(sent('stream')).toEqual([{ prompt: 'a lighthouse at dusk', count: 3 }]),
  );
  expect(sent('submit')).toEqual([]);
});
