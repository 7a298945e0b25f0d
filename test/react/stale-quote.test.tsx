/**
 * The quote is the price (docs/protocol.md, "The hooks"): after a change of params the old price
 * shows as updating and the start button is disabled until the quote for the new params arrives,
 * through the debounce and the request; a click in that window starts nothing. The real client and
 * the reference service in-process; the quote's answer held by the test, the debounce on the fake
 * clock.
 */
import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createReferenceService, demoTaskSchemas } from '../../src/reference/index.js';
import { recordRequests, renderWithTaskwire } from '../../src/testing/index.js';
import { holdAnswers } from '../support/hold-answers.js';
import { PriceThenStart } from '../support/price-then-start.js';
import { fakeTimersAndClock, step, until } from '../support/fake-clock.js';

const closing: (() => Promise<void>)[] = [];
beforeEach(() => {
  fakeTimersAndClock();
});
afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()));
  vi.useRealTimers();
});

/** The page on a reference service whose quotes the test can hold, every request recorded. */
function renderPage() {
  const reference = createReferenceService({ timeScale: 0.01 });
  closing.push(() => reference.close());
  const quotes = holdAnswers(reference, 'options');
  const service = recordRequests(quotes.service);
  const view = renderWithTaskwire(<PriceThenStart />, {
    service,
    clientConfig: { tasks: demoTaskSchemas },
  });
  const preview = view.container.querySelector('.taskwire-cost');
  const sent = (endpoint: string) =>
    service.requests
      .filter((request) => request.endpoint === endpoint)
      .map((request) => (request.body as { params: unknown }).params);
  return { quotes, preview, sent };
}

describe('a price and its start button', () => {
  it('shows the old price as updating and starts nothing until the new params are priced', async () => {
    const { quotes, preview, sent } = renderPage();
    await step(50);
    expect(screen.getByText('2.5 credits')).toBeInTheDocument();
    const generate = screen.getByRole('button', { name: 'Generate' });
    expect(generate).toBeEnabled();

    quotes.hold();
    fireEvent.change(screen.getByLabelText('Number of images'), { target: { value: '3' } });
    // Within the debounce: nothing asked yet, the old price marked as updating.
    expect(preview).toHaveAttribute('data-state', 'updating');
    expect(preview).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByText('2.5 credits')).toBeInTheDocument();
    expect(screen.getByText('Updating…')).toBeInTheDocument();
    expect(generate).toBeDisabled();
    fireEvent.click(generate);

    // Past the debounce: the quote for 3 images is on its way, its answer held.
    await step(300);
    expect(sent('options')).toEqual([
      { prompt: 'a lighthouse at dusk', count: 1 },
      { prompt: 'a lighthouse at dusk', count: 3 },
    ]);
    expect(preview).toHaveAttribute('data-state', 'updating');
    expect(generate).toBeDisabled();
    fireEvent.click(generate);
    await step(50);
    expect(sent('stream')).toEqual([]);
    expect(sent('submit')).toEqual([]);

    quotes.release();
    await step(50);
    expect(screen.getByText('7.5 credits')).toBeInTheDocument();
    expect(preview).toHaveAttribute('data-state', 'priced');
    expect(preview).toHaveAttribute('aria-busy', 'false');
    expect(screen.queryByText('Updating…')).not.toBeInTheDocument();
    expect(generate).toBeEnabled();
    fireEvent.click(generate);
    // Waited for, not stepped past: on a busy machine the start may wait for the hooks' resumable
    // side, loaded with import() in real time.
    await until(() => sent('stream').length > 0);
    expect(sent('stream')).toEqual([{ prompt: 'a lighthouse at dusk', count: 3 }]);
  });
});
