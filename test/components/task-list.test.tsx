import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { createRef, useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  TaskListView,
  type TaskListViewItem,
} from '../../src/components/task-list/task-list-view.js';
import { formatStartTime } from '../../src/components/task-list/format-start-time.js';

afterEach(() => {
  vi.restoreAllMocks();
});

const startedAt = Date.now() - 5 * 60_000;
const progress = (percent: number) => ({ percent, estimatedSecondsLeft: 3 });
const items: TaskListViewItem[] = [
  { entry: { id: 't-queued', task: 'translate-text', status: 'ACCEPTED', startedAt } },
  {
    entry: { id: 't-running', task: 'render-video', status: 'IN_PROGRESS', startedAt },
    record: { status: 'IN_PROGRESS', progress: progress(45) },
  },
  {
    entry: { id: 't-completed', task: 'generate-images', status: 'COMPLETED', startedAt },
    record: {
      status: 'COMPLETED',
      progress: progress(100),
      usage: {
        credits: 5,
        details: [{ toolId: 'image-gen', price: 2.5, amount: 2, credits: 5, failed: false }],
      },
    },
  },
  {
    entry: { id: 't-failed', task: 'failing-task', status: 'FAILED', startedAt },
    record: { status: 'FAILED', progress: progress(30) },
  },
];

async function expectNoAxeViolations(container: Element) {
  const results = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
  expect(results.violations).toEqual([]);
}

describe('TaskListView', () => {
  it('shows the empty text without tasks', async () => {
    const { container } = render(<TaskListView onDismiss={() => {}} />);
    expect(container.firstChild).toHaveAttribute('data-state', 'empty');
    expect(screen.getByText('No tasks yet.')).toBeInTheDocument();
    expect(screen.queryByRole('list')).not.toBeInTheDocument();
    await expectNoAxeViolations(container);
  });

  it('lists each task with its status, progress, credits and start time', async () => {
    const { container } = render(
      <TaskListView items={items} onDismiss={() => {}} locale="en-US" />,
    );
    expect(container.firstChild).toHaveAttribute('data-state', 'listed');
    const list = screen.getByRole('list', { name: 'Tasks' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((row) => row.getAttribute('data-state'))).toEqual([
      'queued',
      'running',
      'completed',
      'failed',
    ]);
    const time = formatStartTime(startedAt, 'en-US').text;
    expect(rows[0]).toHaveTextContent(`translate-textQueuedStarted ${time}Dismiss`);
    expect(rows[1]).toHaveTextContent(`render-videoRunning45% doneStarted ${time}`);
    expect(rows[2]).toHaveTextContent(`generate-imagesCompleted100% done5 creditsStarted ${time}`);
    expect(rows[3]).toHaveTextContent(`failing-taskFailed30% done`);
    expect(rows[0]?.querySelector('time')).toHaveAttribute(
      'datetime',
      new Date(startedAt).toISOString(),
    );
    expect(
      within(list)
        .getAllByRole('button')
        .map((button) => button.getAttribute('aria-label')),
    ).toEqual([
      `Dismiss translate-text, started ${time}`,
      `Dismiss render-video, started ${time}`,
      `Dismiss generate-images, started ${time}`,
      `Dismiss failing-task, started ${time}`,
    ]);
    await expectNoAxeViolations(container);
  });

  it('follows the record’s status over the entry’s', () => {
    render(
      <TaskListView
        items={[
          {
            entry: { id: 'a', task: 'echo', status: 'ACCEPTED', startedAt },
            record: { status: 'COMPLETED', progress: progress(100) },
          },
        ]}
      />,
    );
    expect(screen.getByRole('listitem')).toHaveAttribute('data-state', 'completed');
    expect(screen.getByText('Completed')).toBeInTheDocument();
    // Without onDismiss, nothing to press.
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('shows the date too for a task of another day, in the given locale', () => {
    const old = new Date(2026, 0, 15, 9, 30).getTime();
    render(
      <TaskListView
        items={[{ entry: { id: 'a', task: 'echo', status: 'COMPLETED', startedAt: old } }]}
        locale="de-DE"
      />,
    );
    expect(screen.getByRole('listitem')).toHaveTextContent('Started 15.01.2026, 09:30');
  });

  it('dismisses with the keyboard and moves the focus to the next task, then the heading', async () => {
    const user = userEvent.setup();
    function Journal() {
      const [shown, setShown] = useState(items.slice(0, 3));
      return (
        <TaskListView
          items={shown}
          onDismiss={(id) => setShown((current) => current.filter((item) => item.entry?.id !== id))}
        />
      );
    }
    render(<Journal />);
    await user.tab();
    expect(screen.getByRole('button', { name: /^Dismiss translate-text/ })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.queryByText('translate-text')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Dismiss render-video/ })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: /^Dismiss generate-images/ })).toHaveFocus();
    await user.keyboard(' ');
    // The last one gone: the focus goes back to the one before it.
    expect(screen.getByRole('button', { name: /^Dismiss render-video/ })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.getByText('No tasks yet.')).toBeInTheDocument();
    expect(screen.getByText('Tasks')).toHaveFocus();
  });

  it('calls onDismiss with the task id', async () => {
    const onDismiss = vi.fn();
    render(<TaskListView items={items} onDismiss={onDismiss} />);
    await userEvent.click(screen.getByRole('button', { name: /^Dismiss failing-task/ }));
    expect(onDismiss).toHaveBeenCalledWith('t-failed');
  });

  it('takes its label and empty text', () => {
    render(<TaskListView label="Your exports" emptyText="Nothing running." />);
    expect(screen.getByText('Your exports')).toBeInTheDocument();
    expect(screen.getByText('Nothing running.')).toBeInTheDocument();
  });

  it('reports items that are not an array and shows the empty state', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    // @ts-expect-error: a malformed items prop on purpose
    const { container } = render(<TaskListView items={{ entry: {} }} />);
    expect(container.firstChild).toHaveAttribute('data-state', 'empty');
    expect(error).toHaveBeenCalledWith(expect.stringMatching(/`items`.*TaskListView/));
  });

  it('forwards its ref and spreads other props', () => {
    const ref = createRef<HTMLDivElement>();
    render(<TaskListView ref={ref} data-testid="tasks" className="mine" />);
    expect(ref.current).toBe(screen.getByTestId('tasks'));
    expect(ref.current).toHaveClass('taskwire-task-list', 'mine');
  });

  it('shows a task whose reads failed for good by the error, not by its last status', () => {
    render(
      <TaskListView
        items={[
          {
            entry: { id: 't-gone', task: 'render-video', status: 'ACCEPTED', startedAt },
            error: { status: 404 },
          },
          {
            entry: { id: 't-denied', task: 'echo', status: 'IN_PROGRESS', startedAt },
            record: { status: 'IN_PROGRESS', progress: progress(45) },
            error: { status: 401 },
          },
        ]}
      />,
    );
    const [gone, denied] = screen.getAllByRole('listitem');
    expect(gone).toHaveAttribute('data-state', 'error');
    expect(gone).toHaveTextContent('No longer at the service');
    expect(gone).not.toHaveTextContent('Queued');
    expect(denied).toHaveTextContent('Not signed in to read it');
    expect(denied).not.toHaveTextContent('45%');
  });

  it('shows a start whose outcome is unknown, and dismisses it by its key', async () => {
    const onDismiss = vi.fn();
    const { container } = render(
      <TaskListView
        items={[{ start: { key: 'render', task: 'render-video', startedAt } }, ...items]}
        onDismiss={onDismiss}
      />,
    );
    const [unknown] = screen.getAllByRole('listitem');
    expect(unknown).toHaveAttribute('data-state', 'unknown');
    expect(unknown).toHaveTextContent('render-video');
    expect(unknown).toHaveTextContent('Outcome unknown');
    await userEvent.click(within(unknown as HTMLElement).getByRole('button'));
    expect(onDismiss).toHaveBeenCalledWith('start:render');
    await expectNoAxeViolations(container);
  });
});
