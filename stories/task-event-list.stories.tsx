import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { TaskEventList, TaskwireMessagesProvider } from '../src/components/index.js';
import { componentStates, englishSample, events } from './component-states.js';
import { StateGrid } from './state-grid.js';

const meta = {
  title: 'Components/TaskEventList',
  component: TaskEventList,
  args: { events, label: 'Events' },
} satisfies Meta<typeof TaskEventList>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Edit the events in the controls. */
export const Interactive: Story = {
  play: async ({ canvas }) => {
    const items = canvas.getAllByRole('listitem');
    await expect(items).toHaveLength(3);
    await expect(items[2]).toHaveTextContent('thumbnail-readyurl: https://example.com/thumb.png');
  },
};

/** Both states, light and dark. */
export const AllStates: Story = {
  render: () => (
    <TaskwireMessagesProvider locale="en">
      <StateGrid cells={componentStates.TaskEventList(englishSample)} />
    </TaskwireMessagesProvider>
  ),
  play: async ({ canvas }) => {
    await expect(canvas.getAllByText('No events yet.')).toHaveLength(2);
    await expect(canvas.getAllByRole('list', { name: 'Events' })).toHaveLength(2);
  },
};
