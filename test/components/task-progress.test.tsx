import { render, screen } from '@testing-library/react';
import axe from 'axe-core';
import { createRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TaskProgress } from '../../src/components/task-progress/task-progress.js';

async function axeViolations(container: Element): Promise<string[]> {
  // jsdom has no canvas, so colour contrast is checked in Chromium (test/browser) instead.
  const results = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
  return results.violations.map((violation) => `${violation.id}: ${violation.help}`);
}

function liveRegion(container: HTMLElement): HTMLElement {
  const region = container.querySelector<HTMLElement>('[aria-live="polite"]');
  if (!region) throw new Error('no live region');
  return region;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('TaskProgress', () => {
  it('shows an idle bar at zero by default, announcing nothing', async () => {
    const { container } = render(<TaskProgress />);
    const bar = screen.getByRole('progressbar', { name: 'Task progress' });
    expect(container.firstChild).toHaveAttribute('data-state', 'idle');
    expect(bar).toHaveAttribute('aria-valuemin', '0');
    expect(bar).toHaveAttribute('aria-valuemax', '100');
    expect(bar).toHaveAttribute('aria-valuenow', '0');
    expect(bar).toHaveAttribute('aria-valuetext', 'Not started');
    expect(liveRegion(container)).toHaveTextContent(/^$/);
    expect(await axeViolations(container)).toEqual([]);
  });

  it('shows queued for the service state ACCEPTED and for "queued"', async () => {
    const { container, rerender } = render(<TaskProgress status="ACCEPTED" />);
    expect(container.firstChild).toHaveAttribute('data-state', 'queued');
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuetext', 'Queued');
    expect(liveRegion(container)).toHaveTextContent('Task progress: Queued');
    rerender(<TaskProgress status="queued" />);
    expect(container.firstChild).toHaveAttribute('data-state', 'queued');
    expect(await axeViolations(container)).toEqual([]);
  });

  it('shows the percentage and a humane time left while running', async () => {
    const { container } = render(
      <TaskProgress status="IN_PROGRESS" percent={45} estimatedSecondsLeft={20} locale="en" />,
    );
    const bar = screen.getByRole('progressbar');
    expect(container.firstChild).toHaveAttribute('data-state', 'running');
    expect(bar).toHaveAttribute('aria-valuenow', '45');
    expect(bar).toHaveAttribute('aria-valuetext', '45 percent, about 20 seconds left');
    expect(screen.getByText('45%')).toBeInTheDocument();
    expect(screen.getByText('about 20 s left')).toBeInTheDocument();
    expect(await axeViolations(container)).toEqual([]);
  });

  it('is indeterminate while running without a percentage, leaving out aria-valuenow', async () => {
    const { container } = render(<TaskProgress status="running" estimatedSecondsLeft={170} />);
    const bar = screen.getByRole('progressbar');
    expect(container.firstChild).toHaveAttribute('data-state', 'indeterminate');
    expect(bar).not.toHaveAttribute('aria-valuenow');
    expect(bar).toHaveAttribute('aria-valuetext', 'Running, about 3 minutes left');
    expect(screen.getByText('about 3 min left')).toBeInTheDocument();
    expect(await axeViolations(container)).toEqual([]);
  });

  it('treats an estimate of zero as no estimate', () => {
    render(<TaskProgress status="running" percent={0} estimatedSecondsLeft={0} />);
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuetext', '0 percent');
  });

  it('fills the bar and says so when completed', async () => {
    const { container } = render(
      <TaskProgress status="COMPLETED" percent={80} estimatedSecondsLeft={10} label="Render" />,
    );
    const bar = screen.getByRole('progressbar', { name: 'Render' });
    expect(container.firstChild).toHaveAttribute('data-state', 'completed');
    expect(bar).toHaveAttribute('aria-valuenow', '100');
    expect(bar).toHaveAttribute('aria-valuetext', 'Completed');
    expect(screen.queryByText(/left/)).not.toBeInTheDocument();
    expect(liveRegion(container)).toHaveTextContent('Render: Completed');
    expect(await axeViolations(container)).toEqual([]);
  });

  it('shows the failure message as text and keeps the last percentage', async () => {
    const { container } = render(
      <TaskProgress status="FAILED" percent={40} failureMessage="<b>GPU</b> ran out of memory" />,
    );
    const bar = screen.getByRole('progressbar');
    expect(container.firstChild).toHaveAttribute('data-state', 'failed');
    expect(bar).toHaveAttribute('aria-valuenow', '40');
    expect(bar).toHaveAttribute('aria-valuetext', 'Failed');
    expect(screen.getByText('<b>GPU</b> ran out of memory')).toBeInTheDocument();
    expect(container.querySelector('b')).toBeNull();
    expect(liveRegion(container)).toHaveTextContent(
      'Task progress: Failed: <b>GPU</b> ran out of memory',
    );
    expect(await axeViolations(container)).toEqual([]);
  });

  it('leaves out aria-valuenow when a failed task never reported a percentage', () => {
    render(<TaskProgress status="failed" />);
    expect(screen.getByRole('progressbar')).not.toHaveAttribute('aria-valuenow');
  });

  it('announces every 25 percent and the end, not every update', () => {
    const { container, rerender } = render(<TaskProgress status="running" percent={0} />);
    const heard: string[] = [];
    const listen = () => {
      const text = liveRegion(container).textContent ?? '';
      if (heard.at(-1) !== text) heard.push(text);
    };
    listen();
    for (let percent = 1; percent <= 100; percent += 3) {
      rerender(<TaskProgress status="running" percent={percent} />);
      listen();
    }
    rerender(<TaskProgress status="completed" percent={100} />);
    listen();
    expect(heard).toEqual([
      'Task progress: Running',
      'Task progress: 25 percent',
      'Task progress: 50 percent',
      'Task progress: 75 percent',
      'Task progress: 100 percent',
      'Task progress: Completed',
    ]);
  });

  it('announces at the step given by announceEvery', () => {
    const { container, rerender } = render(
      <TaskProgress status="running" percent={9} announceEvery={10} />,
    );
    expect(liveRegion(container)).toHaveTextContent('Task progress: Running');
    rerender(<TaskProgress status="running" percent={12} announceEvery={10} />);
    expect(liveRegion(container)).toHaveTextContent('Task progress: 10 percent');
    rerender(<TaskProgress status="running" percent={19} announceEvery={10} />);
    expect(liveRegion(container)).toHaveTextContent('Task progress: 10 percent');
  });

  it('leaves the label out of the announcement when the label is not a string', () => {
    const { container } = render(
      <TaskProgress status="completed" label={<strong>Export</strong>} />,
    );
    expect(screen.getByRole('progressbar', { name: 'Export' })).toBeInTheDocument();
    expect(liveRegion(container)).toHaveTextContent(/^Completed$/);
  });

  it('smooths a jumping estimate', () => {
    const { rerender } = render(
      <TaskProgress status="running" percent={10} estimatedSecondsLeft={20} />,
    );
    expect(screen.getByText('about 20 s left')).toBeInTheDocument();
    // 0.3 × 40 + 0.7 × 20 = 26: the text moves to 25 s, not to 40 s.
    rerender(<TaskProgress status="running" percent={11} estimatedSecondsLeft={40} />);
    expect(screen.getByText('about 25 s left')).toBeInTheDocument();
  });

  it('follows the estimate exactly with smoothingWeight 1', () => {
    const { rerender } = render(
      <TaskProgress status="running" percent={10} estimatedSecondsLeft={20} smoothingWeight={1} />,
    );
    rerender(
      <TaskProgress status="running" percent={11} estimatedSecondsLeft={40} smoothingWeight={1} />,
    );
    expect(screen.getByText('about 40 s left')).toBeInTheDocument();
  });

  it('starts smoothing afresh after the task stops running', () => {
    const { rerender } = render(
      <TaskProgress status="running" percent={10} estimatedSecondsLeft={20} />,
    );
    rerender(<TaskProgress status="completed" />);
    rerender(<TaskProgress status="running" percent={1} estimatedSecondsLeft={170} />);
    expect(screen.getByText('about 3 min left')).toBeInTheDocument();
  });

  it('formats figures in the given locale', () => {
    render(<TaskProgress status="running" percent={45} estimatedSecondsLeft={5400} locale="de" />);
    expect(screen.getByText('45 %')).toBeInTheDocument();
    expect(screen.getByText('about 1,5 h left')).toBeInTheDocument();
  });

  it('reports an out-of-range percent in development and renders indeterminate', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { container } = render(<TaskProgress status="running" percent={150} />);
    expect(container.firstChild).toHaveAttribute('data-state', 'indeterminate');
    expect(error).toHaveBeenCalledWith(
      expect.stringMatching(/`percent` of value `150`.*TaskProgress/),
    );
  });

  it('reports an unknown status and renders idle', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    // @ts-expect-error: an invalid status on purpose
    const { container } = render(<TaskProgress status="bogus" />);
    expect(container.firstChild).toHaveAttribute('data-state', 'idle');
    expect(error).toHaveBeenCalledWith(expect.stringMatching(/`status` of value `'bogus'`/));
  });

  it('reports invalid estimatedSecondsLeft, announceEvery and smoothingWeight', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { container } = render(
      <TaskProgress
        status="running"
        percent={30}
        estimatedSecondsLeft={-1}
        announceEvery={0}
        smoothingWeight={2}
      />,
    );
    expect(liveRegion(container)).toHaveTextContent('Task progress: 25 percent');
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuetext', '30 percent');
    const messages = error.mock.calls.map((call) => String(call[0]));
    expect(messages.some((message) => message.includes('`estimatedSecondsLeft`'))).toBe(true);
    expect(messages.some((message) => message.includes('`announceEvery`'))).toBe(true);
    expect(messages.some((message) => message.includes('`smoothingWeight`'))).toBe(true);
  });

  it('forwards its ref and spreads other props on the element with role progressbar', () => {
    const ref = createRef<HTMLDivElement>();
    const { container } = render(
      <TaskProgress
        ref={ref}
        status="running"
        percent={30}
        data-testid="progress"
        className="mine"
        title="Upload"
      />,
    );
    const bar = screen.getByRole('progressbar', { name: 'Task progress' });
    expect(ref.current).toBe(bar);
    expect(screen.getByTestId('progress')).toBe(bar);
    expect(bar).toHaveClass('mine');
    expect(bar).toHaveAttribute('title', 'Upload');
    expect(bar).toHaveAttribute('data-state', 'running');
    expect(container.firstChild).toHaveAttribute('data-state', 'running');
    expect(container.firstChild).not.toHaveClass('mine');
  });

  it('takes its accessible name from an aria-label on the progressbar, keeping the visible label', async () => {
    const { container } = render(
      <TaskProgress status="completed" label="Export" aria-label="Export of March invoices" />,
    );
    const bar = screen.getByRole('progressbar', { name: 'Export of March invoices' });
    expect(bar).toHaveAttribute('aria-label', 'Export of March invoices');
    expect(bar).not.toHaveAttribute('aria-labelledby');
    expect(screen.getByText('Export')).toBeVisible();
    expect(liveRegion(container)).toHaveTextContent('Export of March invoices: Completed');
    expect(await axeViolations(container)).toEqual([]);
  });

  it('lets an aria-labelledby of the app name the progressbar', () => {
    render(
      <>
        <h2 id="heading">Monthly report</h2>
        <TaskProgress status="queued" aria-labelledby="heading" />
      </>,
    );
    expect(screen.getByRole('progressbar', { name: 'Monthly report' })).toBeInTheDocument();
  });
});

describe('TaskProgress reconnecting', () => {
  it('says reconnecting, keeps the last percent on a marked bar and drops the time left', async () => {
    const { container, rerender } = render(
      <TaskProgress status="running" percent={26} estimatedSecondsLeft={5} label="Render" />,
    );
    expect(screen.getByText('a few seconds left')).toBeInTheDocument();
    rerender(
      <TaskProgress status="reconnecting" percent={26} estimatedSecondsLeft={5} label="Render" />,
    );
    const bar = screen.getByRole('progressbar', { name: 'Render' });
    expect(container.firstChild).toHaveAttribute('data-state', 'reconnecting');
    expect(bar).toHaveAttribute('data-state', 'reconnecting');
    expect(bar).toHaveAttribute('aria-valuenow', '26');
    expect(bar).toHaveAttribute('aria-valuetext', 'Reconnecting, 26 percent');
    expect(screen.getByText('Reconnecting…')).toBeInTheDocument();
    expect(screen.queryByText(/left/)).not.toBeInTheDocument();
    expect(screen.queryByText(/Running|26%/)).not.toBeInTheDocument();
    expect(await axeViolations(container)).toEqual([]);
  });

  it('is heard once, politely, however long the reconnection takes', () => {
    const { container, rerender } = render(
      <TaskProgress status="running" percent={26} label="Render" />,
    );
    const heard: string[] = [];
    const listen = () => {
      const text = liveRegion(container).textContent ?? '';
      if (heard.at(-1) !== text) heard.push(text);
    };
    listen();
    for (const percent of [26, 27, 40, 60]) {
      rerender(<TaskProgress status="reconnecting" percent={percent} label="Render" />);
      listen();
    }
    expect(heard).toEqual(['Render: 25 percent', 'Render: Reconnecting']);
    expect(liveRegion(container)).toHaveAttribute('aria-live', 'polite');
  });

  it('leaves out aria-valuenow when no percentage came before the stream broke', () => {
    render(<TaskProgress status="reconnecting" />);
    const bar = screen.getByRole('progressbar');
    expect(bar).not.toHaveAttribute('aria-valuenow');
    expect(bar).toHaveAttribute('aria-valuetext', 'Reconnecting');
  });
});

describe('TaskProgress aria-valuenow', () => {
  it('rounds floating-point noise from the service to one decimal', () => {
    render(<TaskProgress status="running" percent={55.00000000000001} label="Render" />);
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '55');
  });

  it('marks the fill to glide on a jump of 10 points or more, not on a smaller step', () => {
    const { container, rerender } = render(<TaskProgress status="running" percent={30} />);
    const indicator = container.querySelector('.taskwire-progress__indicator');
    expect(indicator).not.toHaveAttribute('data-glide');
    rerender(<TaskProgress status="running" percent={31} />);
    expect(indicator).not.toHaveAttribute('data-glide');
    rerender(<TaskProgress status="running" percent={80} />);
    expect(indicator).toHaveAttribute('data-glide');
    // A render that does not move the fill (a new time left) keeps what the last move was.
    rerender(<TaskProgress status="running" percent={80} estimatedSecondsLeft={5} />);
    expect(indicator).toHaveAttribute('data-glide');
    rerender(<TaskProgress status="running" percent={89} estimatedSecondsLeft={5} />);
    expect(indicator).not.toHaveAttribute('data-glide');
    rerender(<TaskProgress status="completed" percent={89} />);
    expect(indicator).toHaveAttribute('data-glide');
  });
});
