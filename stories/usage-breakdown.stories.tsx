import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { UsageBreakdown, TaskwireMessagesProvider } from '../src/components/index.js';
import { componentStates, englishSample, usage } from './component-states.js';
import { StateGrid } from './state-grid.js';

const meta = {
  title: 'Components/UsageBreakdown',
  component: UsageBreakdown,
  args: { usage, quote: { credits: 10 }, locale: 'en' },
  argTypes: { locale: { control: 'select', options: ['en', 'de', 'fr', 'ja'] } },
} satisfies Meta<typeof UsageBreakdown>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Edit the usage and the quote in the controls. */
export const Interactive: Story = {
  play: async ({ canvas }) => {
    const table = canvas.getByRole('table', { name: 'Credits used' });
    const failed = within(table).getByRole('rowheader', { name: 'safety-check' }).closest('tr');
    await expect(failed).toHaveTextContent('Not charged (failed)');
    await expect(within(table).getByRole('rowheader', { name: 'Total' })).toBeVisible();
    await expect(canvas.getByText('Quoted 10 credits, charged 8 credits.')).toBeVisible();
  },
};

/** Every state, light and dark. */
export const AllStates: Story = {
  render: () => (
    <TaskwireMessagesProvider locale="en">
      <StateGrid minWidth={320} cells={componentStates.UsageBreakdown(englishSample)} />
    </TaskwireMessagesProvider>
  ),
  play: async ({ canvas }) => {
    await expect(canvas.getAllByText(/No credits were used\./)).toHaveLength(2);
    await expect(canvas.getAllByText('Charged as quoted: 8 credits.')).toHaveLength(2);
    const alerts = canvas.getAllByRole('alert');
    await expect(alerts).toHaveLength(4);
    await expect(alerts[0]).toHaveTextContent('These figures do not add up.');
    await expect(alerts[1]).toHaveTextContent(
      'upscale was charged 5 credits; its price × amount is 4 credits.',
    );
    await expect(canvas.getAllByText('Quoted 10 credits, charged 8 credits.')).toHaveLength(2);
  },
};
