import { render, screen } from '@testing-library/react';
import axe from 'axe-core';
import { createRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TaskStatusBadge } from '../../src/components/task-status-badge/task-status-badge.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('TaskStatusBadge', () => {
  it('says each service state in words and mirrors it in data-state', async () => {
    const { container, rerender } = render(<TaskStatusBadge status="ACCEPTED" />);
    const seen: [string | null, string | null][] = [];
    for (const status of ['ACCEPTED', 'IN_PROGRESS', 'COMPLETED', 'FAILED'] as const) {
      rerender(<TaskStatusBadge status={status} />);
      const badge = container.firstElementChild;
      seen.push([badge?.textContent ?? null, badge?.getAttribute('data-state') ?? null]);
    }
    expect(seen).toEqual([
      ['Queued', 'queued'],
      ['Running', 'running'],
      ['Completed', 'completed'],
      ['Failed', 'failed'],
    ]);
    const results = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(results.violations).toEqual([]);
  });

  it('says "Reconnecting" while a stream recovers', () => {
    render(<TaskStatusBadge status="reconnecting" data-testid="badge" />);
    expect(screen.getByTestId('badge')).toHaveTextContent(/^Reconnecting$/);
    expect(screen.getByTestId('badge')).toHaveAttribute('data-state', 'reconnecting');
  });

  it('says "Not started" by default', () => {
    render(<TaskStatusBadge data-testid="badge" />);
    expect(screen.getByTestId('badge')).toHaveTextContent('Not started');
    expect(screen.getByTestId('badge')).toHaveAttribute('data-state', 'idle');
  });

  it('reports an unknown status and shows idle', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    // @ts-expect-error: an invalid status on purpose
    render(<TaskStatusBadge status="done" data-testid="badge" />);
    expect(screen.getByTestId('badge')).toHaveAttribute('data-state', 'idle');
    expect(error).toHaveBeenCalledWith(expect.stringMatching(/`status` of value `'done'`/));
  });

  it('forwards its ref and spreads other props', () => {
    const ref = createRef<HTMLSpanElement>();
    render(<TaskStatusBadge ref={ref} status="running" className="mine" data-testid="badge" />);
    expect(ref.current).toBe(screen.getByTestId('badge'));
    expect(ref.current).toHaveClass('taskwire-badge', 'mine');
  });
});
