import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, within } from 'storybook/test';
import { TaskListView, type TaskListViewItem } from '../src/components/index.js';
import { StateGrid } from './state-grid.js';

// One task of each kind, shaped like the demo tasks' records, started a few minutes ago.
const startedAt = Date.now() - 4 * 60_000;
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
        details: [
          { toolId: 'image-gen', price: 2, amount: 2, credits: 4, failed: false },
          { toolId: 'upscale', price: 0.5, amount: 2, credits: 1, failed: false },
        ],
      },
    },
  },
  {
    entry: { id: 'f', task: 'failing-task', status: 'FAILED', startedAt },
    record: { status: 'FAILED', progress: { percent: 30, estimatedSecondsLeft: 0 } },
  },
];

const meta = {
  title: 'Components/TaskListView',
  component: TaskListView,
  args: { items, locale: 'en' },
  argTypes: { locale: { control: 'select', options: ['en', 'de', 'fr', 'ja'] } },
} satisfies Meta<typeof TaskListView>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Edit the tasks in the controls; the dismiss buttons remove them here. */
export const Interactive: Story = {
  render: function Render(args) {
    const [shown, setShown] = useState(args.items ?? []);
    return (
      <TaskListView
        {...args}
        items={shown}
        onDismiss={(id) => setShown((current) => current.filter((item) => item.entry.id !== id))}
      />
    );
  },
  play: async ({ canvas, userEvent }) => {
    await expect(canvas.getAllByRole('listitem')).toHaveLength(4);
    await userEvent.tab();
    await expect(canvas.getByRole('button', { name: /^Dismiss translate-text/ })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await expect(canvas.getAllByRole('listitem')).toHaveLength(3);
    await expect(canvas.getByRole('button', { name: /^Dismiss render-video/ })).toHaveFocus();
  },
};

/** Every state, light and dark: empty, and one task queued, running, completed and failed. */
export const AllStates: Story = {
  render: () => (
    <StateGrid
      minWidth={320}
      cells={[
        { name: 'empty', node: <TaskListView onDismiss={() => {}} /> },
        ...items.map((item) => ({
          name: `listed: ${item.entry.task}`,
          node: <TaskListView items={[item]} onDismiss={() => {}} locale="en" />,
        })),
        {
          name: 'listed: all',
          node: <TaskListView items={items} onDismiss={() => {}} locale="en" />,
        },
      ]}
    />
  ),
  play: async ({ canvas }) => {
    await expect(canvas.getAllByText('No tasks yet.')).toHaveLength(2);
    const all = canvas.getAllByRole('list', { name: 'Tasks' });
    await expect(all).toHaveLength(2 * 5);
    const [firstAll] = all.filter((list) => within(list).queryAllByRole('listitem').length === 4);
    if (!firstAll) throw new Error('no full list');
    await expect(
      within(firstAll)
        .getAllByRole('listitem')
        .map((item) => item.getAttribute('data-state')),
    ).toEqual(['queued', 'running', 'completed', 'failed']);
  },
};
