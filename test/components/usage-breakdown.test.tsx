import { render, screen, within } from '@testing-library/react';
import axe from 'axe-core';
import { createRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UsageBreakdown } from '../../src/components/usage-breakdown/usage-breakdown.js';
import type { Usage } from '../../src/protocol/usage.js';

async function axeViolations(container: Element): Promise<string[]> {
  // jsdom has no canvas, so colour contrast is checked in Chromium (test/browser) instead.
  const results = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
  return results.violations.map((violation) => `${violation.id}: ${violation.help}`);
}

const usage: Usage = {
  credits: 8,
  details: [
    { toolId: 'image-gen', price: 2, amount: 3, credits: 6, failed: false },
    { toolId: 'upscale', price: 1, amount: 2, credits: 2, failed: false },
    { toolId: 'safety-check', price: 0.5, amount: 2, credits: 1, failed: true },
  ],
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('UsageBreakdown', () => {
  it('shows an empty state without usage', async () => {
    const { container } = render(<UsageBreakdown />);
    expect(container.firstChild).toHaveAttribute('data-state', 'empty');
    expect(screen.getByText(/No credits were used\./)).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(await axeViolations(container)).toEqual([]);
  });

  it('shows the empty state for usage without entries', () => {
    const { container } = render(<UsageBreakdown usage={{ credits: 0, details: [] }} />);
    expect(container.firstChild).toHaveAttribute('data-state', 'empty');
  });

  it('is a table with a caption, column headers and one row header per tool', async () => {
    const { container } = render(<UsageBreakdown usage={usage} />);
    expect(container.firstChild).toHaveAttribute('data-state', 'consistent');
    const table = screen.getByRole('table', { name: 'Credits used' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => [header.textContent, header.getAttribute('scope')]),
    ).toEqual([
      ['Tool', 'col'],
      ['Price', 'col'],
      ['Amount', 'col'],
      ['Credits', 'col'],
    ]);
    expect(
      within(table)
        .getAllByRole('rowheader')
        .map((header) => header.textContent),
    ).toEqual(['image-gen', 'upscale', 'safety-check', 'Total']);
    const rows = within(table).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual([
      'ToolPriceAmountCredits',
      'image-gen236',
      'upscale122',
      'safety-check0.52Not charged (failed)',
      'Total8',
    ]);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(await axeViolations(container)).toEqual([]);
  });

  it('marks a failed row in words and in data-failed', () => {
    render(<UsageBreakdown usage={usage} />);
    const failedRow = screen.getByRole('rowheader', { name: 'safety-check' }).closest('tr');
    expect(failedRow).toHaveAttribute('data-failed', '');
    expect(failedRow).toHaveTextContent('Not charged (failed)');
  });

  it('accepts a failed entry sent with credits 0', () => {
    const { container } = render(
      <UsageBreakdown
        usage={{
          credits: 0,
          details: [{ toolId: 'a', price: 3, amount: 1, credits: 0, failed: true }],
        }}
      />,
    );
    expect(container.firstChild).toHaveAttribute('data-state', 'consistent');
  });

  it('warns visibly when the total disagrees with the rows', async () => {
    const { container } = render(<UsageBreakdown usage={{ ...usage, credits: 12 }} />);
    expect(container.firstChild).toHaveAttribute('data-state', 'inconsistent');
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent(
      'These figures do not add up. The service reported a total of 12 credits; the charged rows add up to 8 credits.',
    );
    // The rows themselves agree with their prices, so no row is blamed.
    expect(alert).not.toHaveTextContent('was charged');
    expect(screen.getByRole('rowheader', { name: 'Total' }).nextSibling).toHaveTextContent('12');
    expect(await axeViolations(container)).toEqual([]);
  });

  it('warns when a row disagrees with its own price and amount', () => {
    render(
      <UsageBreakdown
        usage={{
          credits: 5,
          details: [{ toolId: 'a', price: 2, amount: 2, credits: 5, failed: false }],
        }}
      />,
    );
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('These figures do not add up.');
    expect(alert).toHaveTextContent('a was charged 5 credits; its price × amount is 4 credits.');
    // The total agrees with the rows charged, so it is not called into question.
    expect(alert).not.toHaveTextContent('reported a total');
  });

  it('compares the charge with a different quote', () => {
    render(<UsageBreakdown usage={usage} quote={{ credits: 10 }} />);
    expect(screen.getByText('Quoted 10 credits, charged 8 credits.')).toBeInTheDocument();
  });

  it('says the charge matches the quote', () => {
    render(<UsageBreakdown usage={usage} quote={{ credits: 8 }} />);
    expect(screen.getByText('Charged as quoted: 8 credits.')).toBeInTheDocument();
  });

  it('compares a quote with nothing charged', () => {
    render(<UsageBreakdown quote={{ credits: 10 }} />);
    expect(screen.getByText('Quoted 10 credits, charged 0 credits.')).toBeInTheDocument();
  });

  it('says nothing of a quote without credits', () => {
    render(<UsageBreakdown usage={usage} quote={{}} />);
    expect(screen.queryByText(/Quoted|as quoted/)).not.toBeInTheDocument();
  });

  it('formats figures in the given locale and takes a caption', () => {
    render(
      <UsageBreakdown
        locale="de"
        caption="Kosten"
        usage={{
          credits: 1500.5,
          details: [{ toolId: 'a', price: 0.5, amount: 3001, credits: 1500.5, failed: false }],
        }}
      />,
    );
    const table = screen.getByRole('table', { name: 'Kosten' });
    expect(within(table).getAllByText('1.500,5')).toHaveLength(2);
    expect(within(table).getByText('0,5')).toBeInTheDocument();
  });

  it('renders tool ids from the service as text', () => {
    const { container } = render(
      <UsageBreakdown
        usage={{
          credits: 1,
          details: [
            { toolId: '<script>alert(1)</script>', price: 1, amount: 1, credits: 1, failed: false },
          ],
        }}
      />,
    );
    expect(
      screen.getByRole('rowheader', { name: '<script>alert(1)</script>' }),
    ).toBeInTheDocument();
    expect(container.querySelector('script')).toBeNull();
  });

  it('reports a malformed usage and shows the empty state', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    // @ts-expect-error: a malformed usage on purpose
    const { container } = render(<UsageBreakdown usage={{ credits: 'many' }} />);
    expect(container.firstChild).toHaveAttribute('data-state', 'empty');
    expect(error).toHaveBeenCalledWith(expect.stringMatching(/`usage`.*UsageBreakdown/));
  });

  it('forwards its ref and spreads other props', () => {
    const ref = createRef<HTMLDivElement>();
    render(<UsageBreakdown ref={ref} usage={usage} data-testid="usage" className="mine" />);
    expect(ref.current).toBe(screen.getByTestId('usage'));
    expect(ref.current).toHaveClass('taskwire-usage', 'mine');
  });
});
