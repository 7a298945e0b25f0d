// TaskListView in real Chromium: every axe rule, colour contrast included, in both themes; a
// keyboard-only dismissal with real key presses; the reduced-motion rule; right-to-left layout.
import '../../src/styles.css';
import { render, screen } from '@testing-library/react';
import axe from 'axe-core';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cdp, userEvent } from 'vitest/browser';
import { TaskListView, type TaskListViewItem } from '../../src/components/index.js';

async function axeViolations(container: Element): Promise<string[]> {
  const results = await axe.run(container, { resultTypes: ['violations'] });
  return results.violations.flatMap((violation) =>
    violation.nodes.map((node) => `${violation.id}: ${node.failureSummary ?? ''} (${node.html})`),
  );
}

async function emulateMedia(name: string, value: string): Promise<void> {
  await cdp().send('Emulation.setEmulatedMedia', { features: [{ name, value }] });
}

const startedAt = Date.now() - 60_000;
const items: TaskListViewItem[] = [
  { entry: { id: 'q', task: 'translate-text', status: 'ACCEPTED', startedAt } },
  {
    entry: { id: 'r', task: 'render-video', status: 'IN_PROGRESS', startedAt },
    record: { status: 'IN_PROGRESS', progress: { percent: 45, estimatedSecondsLeft: 2 } },
  },
  {
    entry: { id: 'c', task: 'generate-images', status: 'COMPLETED', startedAt },
    record: {
      status: 'COMPLETED',
      progress: { percent: 100, estimatedSecondsLeft: 0 },
      usage: {
        credits: 5,
        details: [{ toolId: 'image-gen', price: 2.5, amount: 2, credits: 5, failed: false }],
      },
    },
  },
  {
    entry: { id: 'f', task: 'failing-task', status: 'FAILED', startedAt },
    record: { status: 'FAILED', progress: { percent: 30, estimatedSecondsLeft: 0 } },
  },
];

function Journal() {
  const [shown, setShown] = useState(items);
  return (
    <TaskListView
      items={shown}
      onDismiss={(id) => setShown((current) => current.filter((item) => item.entry?.id !== id))}
    />
  );
}

afterEach(async () => {
  await emulateMedia('prefers-color-scheme', 'light');
  await emulateMedia('prefers-reduced-motion', 'no-preference');
});

describe('TaskListView in Chromium', () => {
  it('passes every axe rule in the light and the dark theme, listed and empty', async () => {
    // A task whose reads failed for good, and a start whose outcome is unknown, beside the others.
    const problems: TaskListViewItem[] = [
      { start: { key: 'render', task: 'render-video', startedAt } },
      {
        entry: { id: 'g', task: 'echo', status: 'ACCEPTED', startedAt },
        error: { status: 404 },
      },
    ];
    for (const theme of ['light', 'dark']) {
      const { container, unmount } = render(
        <div data-theme={theme}>
          <TaskListView items={[...problems, ...items]} onDismiss={() => {}} />
          <TaskListView onDismiss={() => {}} />
        </div>,
      );
      expect(await axeViolations(container)).toEqual([]);
      unmount();
    }
    await emulateMedia('prefers-color-scheme', 'dark');
    const { container } = render(<TaskListView items={items} onDismiss={() => {}} />);
    const root = container.querySelector('.taskwire-task-list');
    if (!root) throw new Error('no list rendered');
    expect(getComputedStyle(root).backgroundColor).toBe('rgb(21, 27, 35)');
    expect(await axeViolations(container)).toEqual([]);
  });

  it('dismisses with Tab and Enter alone, the focus staying in the list', async () => {
    render(<Journal />);
    await userEvent.keyboard('{Tab}');
    const first = screen.getByRole('button', { name: /^Dismiss translate-text/ });
    expect(first).toHaveFocus();
    expect(getComputedStyle(first).outlineStyle).toBe('solid');
    await userEvent.keyboard('{Enter}');
    expect(screen.queryByText('translate-text')).toBeNull();
    expect(screen.getByRole('button', { name: /^Dismiss render-video/ })).toHaveFocus();
    await userEvent.keyboard('{Tab}');
    await userEvent.keyboard(' ');
    expect(screen.queryByText('generate-images')).toBeNull();
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
  });

  it('drops the button transition under reduced motion', async () => {
    render(<TaskListView items={items} onDismiss={() => {}} />);
    const [button] = screen.getAllByRole('button');
    if (!button) throw new Error('no button rendered');
    expect(getComputedStyle(button).transitionDuration).not.toBe('0s');
    await emulateMedia('prefers-reduced-motion', 'reduce');
    expect(getComputedStyle(button).transitionDuration).toBe('0s');
  });

  it('puts the dismiss button at the end of the line, in either direction', () => {
    render(
      <>
        <TaskListView data-testid="ltr" items={items.slice(0, 1)} onDismiss={() => {}} />
        <TaskListView dir="rtl" data-testid="rtl" items={items.slice(0, 1)} onDismiss={() => {}} />
      </>,
    );
    for (const [id, endIsRight] of [
      ['ltr', true],
      ['rtl', false],
    ] as const) {
      const root = screen.getByTestId(id);
      const name = root.querySelector('.taskwire-task-list__task')?.getBoundingClientRect();
      const button = root.querySelector('button')?.getBoundingClientRect();
      if (!name || !button) throw new Error('nothing rendered');
      expect(button.left > name.left).toBe(endIsRight);
    }
  });
});
