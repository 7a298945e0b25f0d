import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { TaskStatusBadge, TaskwireMessagesProvider } from '../src/components/index.js';
import { componentStates, englishSample } from './component-states.js';
import { StateGrid } from './state-grid.js';

const meta = {
  title: 'Components/TaskStatusBadge',
  component: TaskStatusBadge,
  args: { status: 'IN_PROGRESS' },
  argTypes: {
    status: {
      control: 'select',
      options: ['idle', 'ACCEPTED', 'IN_PROGRESS', 'reconnecting', 'COMPLETED', 'FAILED'],
    },
  },
} satisfies Meta<typeof TaskStatusBadge>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Pick the state in the controls. */
export const Interactive: Story = {
  play: async ({ canvas }) => {
    await expect(canvas.getByText('Running')).toHaveAttribute('data-state', 'running');
  },
};

/** Every state, light and dark. */
export const AllStates: Story = {
  render: () => (
    <TaskwireMessagesProvider locale="en">
      <StateGrid minWidth={110} cells={componentStates.TaskStatusBadge(englishSample)} />
    </TaskwireMessagesProvider>
  ),
  play: async ({ canvas }) => {
    for (const word of [
      'Not started',
      'Queued',
      'Running',
      'Reconnecting',
      'Completed',
      'Failed',
    ]) {
      await expect(canvas.getAllByText(word)).toHaveLength(2);
    }
  },
};
