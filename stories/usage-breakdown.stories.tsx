import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { UsageBreakdown } from '../src/components/index.js';
import { StateGrid } from './state-grid.js';

// Shaped like the demo task `generate-images`: charged tools and one failed, not charged.
const usage = {
  credits: 8,
  details: [
    { toolId: 'image-gen', price: 2, amount: 3, credits: 6, failed: false },
    { toolId: 'upscale', price: 1, amount: 2, credits: 2, failed: false },
    { toolId: 'safety-check', price: 0.5, amount: 2, credits: 1, failed: true },
  ],
};

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
    <StateGrid
      minWidth={320}
      cells={[
        { name: 'empty', node: <UsageBreakdown /> },
        {
          name: 'consistent, as quoted',
          node: <UsageBreakdown usage={usage} quote={{ credits: 8 }} />,
        },
        { name: 'inconsistent total', node: <UsageBreakdown usage={{ ...usage, credits: 12 }} /> },
      ]}
    />
  ),
  play: async ({ canvas }) => {
    await expect(canvas.getAllByText(/No credits were used\./)).toHaveLength(2);
    await expect(canvas.getAllByText('Charged as quoted: 8 credits.')).toHaveLength(2);
    const alerts = canvas.getAllByRole('alert');
    await expect(alerts).toHaveLength(2);
    await expect(alerts[0]).toHaveTextContent('These figures do not add up.');
  },
};
