import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, within } from 'storybook/test';
import { TaskListView, TaskwireMessagesProvider } from '../src/components/index.js';
import { componentStates, englishSample, taskListItems } from './component-states.js';
import { StateGrid } from './state-grid.js';

const items = taskListItems(englishSample.tasks);

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
        onDismiss={(id) => setShown((current) => current.filter((item) => item.entry?.id !== id))}
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

/**
 * Every state, light and dark: empty, one task queued, running, completed and failed, a task whose
 * reads failed for good, and a start whose outcome is unknown.
 */
export const AllStates: Story = {
  render: () => (
    <TaskwireMessagesProvider locale="en">
      <StateGrid minWidth={320} cells={componentStates.TaskListView(englishSample)} />
    </TaskwireMessagesProvider>
  ),
  play: async ({ canvas }) => {
    await expect(canvas.getAllByText('No tasks yet.')).toHaveLength(2);
    const all = canvas.getAllByRole('list', { name: 'Tasks' });
    await expect(all).toHaveLength(2 * 7);
    const [firstAll] = all.filter((list) => within(list).queryAllByRole('listitem').length === 4);
    if (!firstAll) throw new Error('no full list');
    await expect(
      within(firstAll)
        .getAllByRole('listitem')
        .map((item) => item.getAttribute('data-state')),
    ).toEqual(['queued', 'running', 'completed', 'failed']);
  },
};
