import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { NotificationActions } from '../src/components/index.js';
import { StateGrid } from './state-grid.js';

// What the demo task `export-data` sends on completion, plus links a service must never get through.
const actions = [
  { deeplink: 'https://example.com/exports/42', mobileDeeplink: 'myapp://exports/42' },
];
const dangerous = [
  { deeplink: 'javascript:alert(document.cookie)', mobileDeeplink: 'data:text/html,<b>x</b>' },
  { deeplink: 'http://example.com/plain-http' },
];

const meta = {
  title: 'Components/NotificationActions',
  component: NotificationActions,
  args: { title: 'Export ready', description: 'Your CSV file is ready to download.', actions },
} satisfies Meta<typeof NotificationActions>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Edit the notification in the controls; walk its links with Tab. */
export const Interactive: Story = {
  play: async ({ canvas, userEvent }) => {
    await userEvent.tab();
    await expect(canvas.getByRole('link', { name: 'Open example.com' })).toHaveFocus();
    await userEvent.tab();
    await expect(canvas.getByRole('link', { name: 'Open in the app' })).toHaveFocus();
  },
};

/** With safe links, and with only dangerous ones (none rendered), light and dark. */
export const AllStates: Story = {
  render: () => (
    <StateGrid
      cells={[
        {
          name: 'listed',
          node: <NotificationActions title="Export ready" actions={actions} />,
        },
        {
          name: 'empty (unsafe links dropped)',
          node: (
            <NotificationActions
              title="Export ready"
              actions={dangerous}
              emptyText="No link to open."
            />
          ),
        },
      ]}
    />
  ),
  play: async ({ canvas }) => {
    await expect(canvas.getAllByRole('link')).toHaveLength(4);
    for (const link of canvas.getAllByRole('link')) {
      await expect(link.getAttribute('href')).toMatch(/^(https:|myapp:)/);
    }
    await expect(canvas.getAllByText('No link to open.')).toHaveLength(2);
  },
};
