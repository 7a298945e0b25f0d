import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { TaskEventList } from '../src/components/index.js';
import { StateGrid } from './state-grid.js';

// The custom events of the demo task `render-video`, as a stream delivers them.
const events = [
  { type: 'event.frame-rendered', eventId: 'e1', frame: 1 },
  { type: 'event.frame-rendered', eventId: 'e2', frame: 2 },
  { type: 'event.thumbnail-ready', eventId: 'e3', url: 'https://example.com/thumb.png' },
];

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
    <StateGrid
      cells={[
        { name: 'empty', node: <TaskEventList /> },
        { name: 'listed', node: <TaskEventList events={events} /> },
      ]}
    />
  ),
  play: async ({ canvas }) => {
    await expect(canvas.getAllByText('No events yet.')).toHaveLength(2);
    await expect(canvas.getAllByRole('list', { name: 'Events' })).toHaveLength(2);
  },
};
