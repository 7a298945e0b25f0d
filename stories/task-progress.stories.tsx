import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, userEvent } from 'storybook/test';
import { TaskProgress, TaskwireMessagesProvider } from '../src/components/index.js';
import { componentStates, englishSample } from './component-states.js';
import { StateGrid } from './state-grid.js';

const meta = {
  title: 'Components/TaskProgress',
  component: TaskProgress,
  args: {
    status: 'running',
    percent: 45,
    estimatedSecondsLeft: 20,
    label: 'Render video',
    locale: 'en',
  },
  argTypes: {
    status: {
      control: 'select',
      options: [
        'idle',
        'queued',
        'running',
        'reconnecting',
        'completed',
        'failed',
        'ACCEPTED',
        'IN_PROGRESS',
      ],
    },
    percent: { control: { type: 'range', min: 0, max: 100, step: 1 } },
    estimatedSecondsLeft: { control: { type: 'number', min: 0 } },
    locale: { control: 'select', options: ['en', 'de', 'fr', 'ja'] },
    announceEvery: { control: { type: 'number', min: 1, max: 100 } },
  },
} satisfies Meta<typeof TaskProgress>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Drive the bar from the controls. */
export const Interactive: Story = {
  play: async ({ canvas }) => {
    const bar = canvas.getByRole('progressbar', { name: 'Render video' });
    await expect(bar).toHaveAttribute('aria-valuenow', '45');
    await expect(bar).toHaveAttribute('aria-valuetext', '45 percent, about 20 seconds left');
    await expect(canvas.getByText('45%')).toBeVisible();
    await expect(canvas.getByText('about 20 s left')).toBeVisible();
  },
};

/** Every state, light and dark. */
export const AllStates: Story = {
  render: () => (
    <TaskwireMessagesProvider locale="en">
      <StateGrid cells={componentStates.TaskProgress(englishSample)} />
    </TaskwireMessagesProvider>
  ),
  play: async ({ canvas }) => {
    const bars = canvas.getAllByRole('progressbar');
    await expect(bars).toHaveLength(18);
    await expect(bars.slice(0, 9).map((bar) => bar.getAttribute('data-state'))).toEqual([
      'idle',
      'queued',
      'indeterminate',
      'running',
      'running',
      'running',
      'reconnecting',
      'completed',
      'failed',
    ]);
    // Without a label the bar is named by its default message.
    await expect(bars[4]).toHaveAccessibleName('Task progress');
    await expect(bars[5]).toHaveAttribute('aria-valuetext', '5 percent, about 2.5 hours left');
    // Reconnecting keeps the last percentage and says so, with no time left.
    await expect(bars[6]).toHaveAttribute('aria-valuetext', 'Reconnecting, 26 percent');
    await expect(canvas.getAllByText('Reconnecting…')[0]).toBeVisible();
    await expect(canvas.queryByText('a few seconds left')).toBeNull();
    await expect(canvas.getAllByText('about 3 min left')[0]).toBeVisible();
    await expect(canvas.getAllByText('less than a minute left')[0]).toBeVisible();
    await expect(canvas.getAllByText('The renderer ran out of memory.')[0]).toBeVisible();
    await expect(bars[2]).not.toHaveAttribute('aria-valuenow');
  },
};

/** The fill glides on a jump of 10 points or more (a poll's), and draws a stream's small steps at once. */
export const Moves: Story = {
  render: function Moves(args) {
    const [percent, setPercent] = useState(20);
    return (
      <div>
        <TaskProgress {...args} percent={percent} estimatedSecondsLeft={null} />
        <button type="button" onClick={() => setPercent((value) => Math.min(100, value + 1))}>
          Step 1 point
        </button>{' '}
        <button type="button" onClick={() => setPercent((value) => Math.min(100, value + 30))}>
          Jump 30 points
        </button>
      </div>
    );
  },
  play: async ({ canvas }) => {
    const fill = () =>
      canvas.getByRole('progressbar').querySelector('.taskwire-progress__indicator');
    await userEvent.click(canvas.getByRole('button', { name: 'Jump 30 points' }));
    await expect(canvas.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '50');
    await expect(fill()).toHaveAttribute('data-glide');
    await userEvent.click(canvas.getByRole('button', { name: 'Step 1 point' }));
    await expect(canvas.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '51');
    await expect(fill()).not.toHaveAttribute('data-glide');
  },
};
