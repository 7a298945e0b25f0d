import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { NotificationActions } from '../src/components/index.js';
import { quietExpectedWarnings } from './expected-warnings.js';
import { StateGrid } from './state-grid.js';

// What the demo task `export-data` sends on completion, plus links a service must never get through.
const actions = [
  { deeplink: 'https://example.com/exports/42', mobileDeeplink: 'myapp://exports/42' },
];
const dangerous = [
  { deeplink: 'javascript:alert(document.cookie)', mobileDeeplink: 'data:text/html,<b>x</b>' },
  { deeplink: 'http://example.com/plain-http' },
  // App schemes this app did not list in appSchemes: another program on the device would open them.
  { mobileDeeplink: 'ms-msdt:/id PCWDiagnostic' },
  { mobileDeeplink: 'search-ms:query=invoice' },
];

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
    <StateGrid
      cells={[
        {
          name: 'listed',
          node: (
            <NotificationActions title="Export ready" actions={actions} appSchemes={['myapp']} />
          ),
        },
        {
          name: 'listed (myapp: not in appSchemes, left out)',
          node: <NotificationActions title="Export ready" actions={actions} />,
        },
        {
          name: 'empty (unsafe links dropped)',
          node: (
            <NotificationActions
              title="Export ready"
              actions={dangerous}
              appSchemes={['myapp']}
              emptyText="No link to open."
            />
          ),
        },
      ]}
    />
  ),
  play: async ({ canvas }) => {
    const hrefs = canvas.getAllByRole('link').map((link) => link.getAttribute('href'));
    // Per theme: two links with myapp listed, the https one alone without.
    await expect(hrefs.filter((href) => href?.startsWith('https:'))).toHaveLength(4);
    await expect(hrefs.filter((href) => href?.startsWith('myapp:'))).toHaveLength(2);
    await expect(hrefs).toHaveLength(6);
    await expect(canvas.getAllByText('No link to open.')).toHaveLength(2);
  },
};
