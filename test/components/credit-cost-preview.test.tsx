import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { createRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CreditCostPreview } from '../../src/components/credit-cost-preview/credit-cost-preview.js';
import { isWithinBudget } from '../../src/components/credit-cost-preview/is-within-budget.js';
import { TaskwireMessagesProvider } from '../../src/components/index.js';
import { de } from '../../src/locales/de.js';

async function axeViolations(container: Element): Promise<string[]> {
  // jsdom has no canvas, so colour contrast is checked in Chromium (test/browser) instead.
  const results = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
  return results.violations.map((violation) => `${violation.id}: ${violation.help}`);
}

const priced = { monetization: { toolId: 'image-gen' }, usageAmount: 3, credits: 6 };

afterEach(() => {
  vi.restoreAllMocks();
});

describe('CreditCostPreview', () => {
  it('shows loading while the quote is pending, and is busy', async () => {
    const { container } = render(<CreditCostPreview status="pending" />);
    expect(container.firstChild).toHaveAttribute('data-state', 'loading');
    expect(container.firstChild).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByText('Getting the price…')).toBeInTheDocument();
    expect(await axeViolations(container)).toEqual([]);
  });

  it('is loading when given neither status nor quote', () => {
    const { container } = render(<CreditCostPreview />);
    expect(container.firstChild).toHaveAttribute('data-state', 'loading');
  });

  it('says no price was quoted for an empty options result, never that it is free', async () => {
    const renderSubmit = vi.fn(() => null);
    const { container } = render(
      <CreditCostPreview status="success" quote={{}} balance={0}>
        {renderSubmit}
      </CreditCostPreview>,
    );
    expect(container.firstChild).toHaveAttribute('data-state', 'unpriced');
    expect(container.firstChild).toHaveAttribute('aria-busy', 'false');
    expect(container.firstChild).not.toHaveAttribute('data-budget');
    expect(screen.getByText('No price quoted')).toBeInTheDocument();
    expect(screen.queryByText('Free')).not.toBeInTheDocument();
    expect(screen.queryByRole('term')).not.toBeInTheDocument();
    expect(renderSubmit).toHaveBeenLastCalledWith({
      state: 'unpriced',
      overBudget: false,
      isUpdating: false,
      canStart: true,
      credits: undefined,
    });
    expect(await axeViolations(container)).toEqual([]);
  });

  it('shows an empty options result as free when the app says unpriced is free', async () => {
    const { container } = render(<CreditCostPreview quote={{}} unpricedIsFree />);
    expect(container.firstChild).toHaveAttribute('data-state', 'free');
    expect(container.firstChild).not.toHaveAttribute('unpricedisfree');
    expect(screen.getByText('Free')).toBeInTheDocument();
    expect(screen.queryByText('No price quoted')).not.toBeInTheDocument();
    expect(await axeViolations(container)).toEqual([]);
  });

  it('shows a quote of zero credits as free, with its tool, whether or not unpriced is free', () => {
    const zero = { monetization: { toolId: 'image-gen' }, usageAmount: 1, credits: 0 };
    const { container, rerender } = render(<CreditCostPreview quote={zero} />);
    expect(container.firstChild).toHaveAttribute('data-state', 'free');
    expect(screen.getByText('Free')).toBeInTheDocument();
    expect(screen.getByText('Tool').nextSibling).toHaveTextContent('image-gen');
    rerender(<CreditCostPreview quote={{ credits: 0 }} unpricedIsFree={false} />);
    expect(container.firstChild).toHaveAttribute('data-state', 'free');
    expect(screen.getByText('Free')).toBeInTheDocument();
  });

  it('marks an unpriced quote as updating while the next one loads', () => {
    const { container } = render(<CreditCostPreview quote={{}} isUpdating />);
    expect(container.firstChild).toHaveAttribute('data-state', 'updating');
    expect(container.firstChild).toHaveAttribute('data-updating', '');
    expect(screen.getByText('No price quoted')).toBeInTheDocument();
    expect(screen.getByText('Updating…')).toBeInTheDocument();
  });

  it('shows the credits, the tool and the usage amount when priced', async () => {
    const { container } = render(<CreditCostPreview quote={priced} />);
    expect(container.firstChild).toHaveAttribute('data-state', 'priced');
    expect(screen.getByText('6 credits')).toBeInTheDocument();
    expect(screen.getByText('Tool').nextSibling).toHaveTextContent('image-gen');
    expect(screen.getByText('Usage').nextSibling).toHaveTextContent('3');
    expect(await axeViolations(container)).toEqual([]);
  });

  it('says "credit" for one credit', () => {
    render(<CreditCostPreview quote={{ credits: 1 }} />);
    expect(screen.getByText('1 credit')).toBeInTheDocument();
  });

  it('says the price is not given when a monetization comes without credits', () => {
    const { container } = render(<CreditCostPreview quote={{ monetization: { toolId: 'x' } }} />);
    expect(container.firstChild).toHaveAttribute('data-state', 'priced');
    expect(screen.getByText('Price not given')).toBeInTheDocument();
  });

  it('formats figures in the given locale', () => {
    render(<CreditCostPreview quote={{ credits: 1234.5, usageAmount: 2.5 }} locale="de" />);
    expect(screen.getByText('1.234,5 credits')).toBeInTheDocument();
    expect(screen.getByText('2,5')).toBeInTheDocument();
  });

  it('keeps the stale price visible and marked while a new one loads', async () => {
    const { container } = render(<CreditCostPreview quote={priced} isUpdating />);
    expect(container.firstChild).toHaveAttribute('data-state', 'updating');
    expect(container.firstChild).toHaveAttribute('data-updating', '');
    expect(container.firstChild).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByText('6 credits')).toBeInTheDocument();
    expect(screen.getByText('Updating…')).toBeInTheDocument();
    expect(await axeViolations(container)).toEqual([]);
  });

  it('ignores isUpdating while there is no price yet', () => {
    const { container } = render(<CreditCostPreview status="pending" isUpdating />);
    expect(container.firstChild).not.toHaveAttribute('data-updating');
    expect(screen.queryByText('Updating…')).not.toBeInTheDocument();
  });

  it('shows the error message as text and retries on the button', async () => {
    const onRetry = vi.fn();
    const { container } = render(
      <CreditCostPreview
        status="error"
        error={new Error('<i>Service</i> unavailable')}
        onRetry={onRetry}
      />,
    );
    expect(container.firstChild).toHaveAttribute('data-state', 'error');
    expect(screen.getByText('Could not get the price')).toBeInTheDocument();
    expect(screen.getByText('<i>Service</i> unavailable')).toBeInTheDocument();
    expect(container.querySelector('i')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
    expect(await axeViolations(container)).toEqual([]);
  });

  it('reaches the retry button with the keyboard and activates it with Enter and Space', async () => {
    const user = userEvent.setup();
    const onRetry = vi.fn();
    render(<CreditCostPreview status="error" onRetry={onRetry} />);
    await user.tab();
    expect(screen.getByRole('button', { name: 'Try again' })).toHaveFocus();
    await user.keyboard('{Enter}');
    await user.keyboard(' ');
    expect(onRetry).toHaveBeenCalledTimes(2);
  });

  it('shows no retry button without onRetry, and no message for a non-Error', () => {
    const { container } = render(<CreditCostPreview status="error" error="plain string" />);
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(container).not.toHaveTextContent('plain string');
  });

  it('says so when the price exceeds the balance', async () => {
    const { container } = render(<CreditCostPreview quote={priced} balance={5} />);
    expect(container.firstChild).toHaveAttribute('data-budget', 'over');
    expect(screen.getByText(/More than your balance of 5 credits\./)).toBeInTheDocument();
    expect(await axeViolations(container)).toEqual([]);
  });

  it('says nothing of the budget when the price fits', () => {
    const { container } = render(<CreditCostPreview quote={priced} balance={6} />);
    expect(container.firstChild).not.toHaveAttribute('data-budget');
    expect(screen.queryByText(/balance/)).not.toBeInTheDocument();
  });

  it('gives the budget verdict to its render prop, so a caller can disable its submit button', () => {
    const renderSubmit = vi.fn(({ state, overBudget }: { state: string; overBudget: boolean }) => (
      <button type="submit" disabled={overBudget || (state !== 'free' && state !== 'priced')}>
        Run
      </button>
    ));
    const { rerender } = render(
      <CreditCostPreview quote={priced} balance={5}>
        {renderSubmit}
      </CreditCostPreview>,
    );
    expect(screen.getByRole('button', { name: 'Run' })).toBeDisabled();
    expect(renderSubmit).toHaveBeenLastCalledWith({
      state: 'priced',
      overBudget: true,
      isUpdating: false,
      canStart: false,
      credits: 6,
    });
    rerender(
      <CreditCostPreview quote={priced} balance={50}>
        {renderSubmit}
      </CreditCostPreview>,
    );
    expect(screen.getByRole('button', { name: 'Run' })).toBeEnabled();
    rerender(<CreditCostPreview status="pending">{renderSubmit}</CreditCostPreview>);
    expect(screen.getByRole('button', { name: 'Run' })).toBeDisabled();
  });

  it('tells its children not to start while the price is stale, loading, failed or over budget', () => {
    const renderStart = vi.fn(({ canStart }: { canStart: boolean }) => (
      <button type="button" disabled={!canStart}>
        Run
      </button>
    ));
    const view = (props: Parameters<typeof CreditCostPreview>[0]) => (
      <CreditCostPreview {...props}>{renderStart}</CreditCostPreview>
    );
    const { rerender } = render(view({ quote: priced, balance: 10 }));
    const button = screen.getByRole('button', { name: 'Run' });
    expect(button).toBeEnabled();
    rerender(view({ quote: priced, balance: 10, isUpdating: true }));
    expect(button).toBeDisabled();
    expect(renderStart).toHaveBeenLastCalledWith({
      state: 'updating',
      overBudget: false,
      isUpdating: true,
      canStart: false,
      credits: 6,
    });
    rerender(view({ status: 'pending', isUpdating: true }));
    expect(button).toBeDisabled();
    rerender(view({ status: 'error', error: new Error('down') }));
    expect(button).toBeDisabled();
    rerender(view({ quote: priced, balance: 5 }));
    expect(button).toBeDisabled();
    for (const quote of [{}, { credits: 0 }, { monetization: { toolId: 't' } }]) {
      rerender(view({ quote, balance: 0 }));
      expect(button).toBeEnabled();
    }
  });

  it('shows a stale price as updating in German', () => {
    const { container } = render(
      <TaskwireMessagesProvider messages={de} locale="de">
        <CreditCostPreview quote={priced} isUpdating />
      </TaskwireMessagesProvider>,
    );
    expect(container.firstChild).toHaveAttribute('data-state', 'updating');
    expect(container.firstChild).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByText('6 Credits')).toBeInTheDocument();
    expect(screen.getByText('Wird aktualisiert …')).toBeInTheDocument();
  });

  it('renders a tool id from the service as text', () => {
    const { container } = render(
      <CreditCostPreview
        quote={{ monetization: { toolId: '<img src=x onerror=alert(1)>' }, credits: 2 }}
      />,
    );
    expect(screen.getByText('<img src=x onerror=alert(1)>')).toBeInTheDocument();
    expect(container.querySelector('img')).toBeNull();
  });

  it('reports an unknown status and a success without a quote, then shows loading', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    // @ts-expect-error: an invalid status on purpose
    const { container, rerender } = render(<CreditCostPreview status="loading" />);
    expect(container.firstChild).toHaveAttribute('data-state', 'loading');
    expect(error).toHaveBeenCalledWith(expect.stringMatching(/`status` of value `'loading'`/));
    rerender(<CreditCostPreview status="success" />);
    expect(container.firstChild).toHaveAttribute('data-state', 'loading');
    expect(error).toHaveBeenCalledWith(expect.stringMatching(/`quote`/));
  });

  it('reports negative credits and an invalid balance', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { container } = render(
      <CreditCostPreview
        quote={{ monetization: { toolId: 't' }, credits: -4 }}
        balance={Number.NaN}
      />,
    );
    expect(screen.getByText('Price not given')).toBeInTheDocument();
    expect(container.firstChild).not.toHaveAttribute('data-budget');
    const messages = error.mock.calls.map((call) => String(call[0]));
    expect(messages.some((message) => message.includes('`quote.credits` of value `-4`'))).toBe(
      true,
    );
    expect(messages.some((message) => message.includes('`balance`'))).toBe(true);
  });

  it('forwards its ref, spreads other props and uses the label', () => {
    const ref = createRef<HTMLDivElement>();
    render(
      <CreditCostPreview ref={ref} quote={{}} data-testid="cost" className="mine" label="Price" />,
    );
    expect(ref.current).toBe(screen.getByTestId('cost'));
    expect(ref.current).toHaveClass('taskwire-cost', 'mine');
    expect(screen.getByText('Price')).toBeInTheDocument();
  });
});

describe('isWithinBudget', () => {
  it('is true without a balance', () => {
    expect(isWithinBudget(undefined, undefined)).toBe(true);
    expect(isWithinBudget({ credits: 1e9 }, undefined)).toBe(true);
  });

  it('is false while the price is unknown', () => {
    expect(isWithinBudget(undefined, 10)).toBe(false);
  });

  it('is true for a free task', () => {
    expect(isWithinBudget({}, 0)).toBe(true);
  });

  it('compares the credits with the balance, the balance itself included', () => {
    expect(isWithinBudget({ credits: 10 }, 10)).toBe(true);
    expect(isWithinBudget({ credits: 10.5 }, 10)).toBe(false);
  });

  it('tolerates floating-point error in fractional prices', () => {
    expect(isWithinBudget({ credits: 0.1 + 0.2 }, 0.3)).toBe(true);
  });
});
