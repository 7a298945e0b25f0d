import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { NotificationActions, TaskwireMessagesProvider } from '../src/components/index.js';
import { quietExpectedWarnings } from './expected-warnings.js';
import {
  componentStates,
  englishSample,
  notificationActions as actions,
} from './component-states.js';
import { StateGrid } from './state-grid.js';

const meta = {
  title: 'Components/NotificationActions',
  component: NotificationActions,
  args: {
    title: 'Export ready',
    description: 'Your CSV file is ready to download.',
    actions,
    appSchemes: ['myapp'],
  },
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
  // Each refused link is reported in development; here they are refused on purpose.
  beforeEach: quietExpectedWarnings(/^Invalid prop `actions\[\d+\]\.\w+` .* `NotificationActions`/),
  render: () => (
    <TaskwireMessagesProvider locale="en">
      <StateGrid cells={componentStates.NotificationActions(englishSample)} />
    </TaskwireMessagesProvider>
  ),
  play: async ({ canvas }) => {
    const hrefs = canvas.getAllByRole('link').map((link) => link.getAttribute('href'));
    // Per theme: two links with myapp listed (twice: unlabelled and labelled), the https one alone
    // without.
    await expect(hrefs.filter((href) => href?.startsWith('https:'))).toHaveLength(6);
    await expect(hrefs.filter((href) => href?.startsWith('myapp:'))).toHaveLength(4);
    await expect(hrefs).toHaveLength(10);
    await expect(canvas.getAllByRole('link', { name: 'Export ready in the app' })).toHaveLength(2);
    await expect(canvas.getAllByText('No link to open.')).toHaveLength(2);
  },
};
