import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn } from 'storybook/test';
import {
  CreditCostPreview,
  TaskwireMessagesProvider,
  type CreditCostPreviewProps,
} from '../src/components/index.js';
import { componentStates, englishSample, quote } from './component-states.js';
import { StateGrid } from './state-grid.js';

const meta = {
  title: 'Components/CreditCostPreview',
  component: CreditCostPreview,
  args: {
    status: 'success',
    quote,
    isUpdating: false,
    balance: 10,
    locale: 'en',
    onRetry: fn(),
  },
  argTypes: {
    status: { control: 'inline-radio', options: ['pending', 'success', 'error'] },
    quote: { control: 'object' },
    locale: { control: 'select', options: ['en', 'de', 'fr', 'ja'] },
    balance: { control: { type: 'number', min: 0 } },
  },
} satisfies Meta<typeof CreditCostPreview>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Drive the preview from the controls. */
export const Interactive: Story = {
  play: async ({ canvas }) => {
    await expect(canvas.getByText('7.5 credits')).toBeVisible();
    await expect(canvas.getByText('image-gen')).toBeVisible();
    await expect(canvas.queryByText(/More than your balance/)).toBeNull();
  },
};

/** The error state, walked with the keyboard only: Tab reaches "Try again", Enter retries. */
export const RetryWithKeyboard: Story = {
  args: { status: 'error', error: new Error('The service did not answer.') },
  play: async ({ canvas, userEvent, args }) => {
    await expect(canvas.getByText('The service did not answer.')).toBeVisible();
    await userEvent.tab();
    const retry = canvas.getByRole('button', { name: 'Try again' });
    await expect(retry).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await expect(args.onRetry).toHaveBeenCalledTimes(1);
  },
};

/** The preview with the start button a page puts under it, disabled on `!canStart`. */
function WithStartButton(args: CreditCostPreviewProps) {
  return (
    <CreditCostPreview {...args}>
      {({ canStart }) => (
        <button type="button" className="taskwire-button" disabled={!canStart}>
          Generate images
        </button>
      )}
    </CreditCostPreview>
  );
}

/** The render prop's `canStart` disables the caller's submit button over the balance. */
export const BudgetGate: Story = {
  args: { balance: 5 },
  render: WithStartButton,
  play: async ({ canvas }) => {
    await expect(canvas.getByText(/More than your balance of 5 credits\./)).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Generate images' })).toBeDisabled();
  },
};

/**
 * A price for earlier params, while the new params are priced: still shown, marked "Updating…",
 * and the button waits, so nothing starts at a price the user was not shown.
 */
export const StalePrice: Story = {
  args: { isUpdating: true },
  render: WithStartButton,
  play: async ({ canvas, canvasElement }) => {
    await expect(canvas.getByText('7.5 credits')).toBeVisible();
    await expect(canvas.getByText('Updating…')).toBeVisible();
    const preview = canvasElement.querySelector('.taskwire-cost');
    await expect(preview).toHaveAttribute('data-state', 'updating');
    await expect(preview).toHaveAttribute('aria-busy', 'true');
    await expect(canvas.getByRole('button', { name: 'Generate images' })).toBeDisabled();
  },
};

/**
 * An options answer of `{}`: no monetization is configured, which is not a price of 0, so the
 * preview says no price was quoted (unless the app sets `unpricedIsFree`).
 */
export const Unpriced: Story = {
  args: { quote: {} },
  play: async ({ canvas, canvasElement }) => {
    await expect(canvas.getByText('No price quoted')).toBeVisible();
    await expect(canvas.queryByText('Free')).toBeNull();
    await expect(canvasElement.querySelector('.taskwire-cost')).toHaveAttribute(
      'data-state',
      'unpriced',
    );
  },
};

/** Every state, light and dark. */
export const AllStates: Story = {
  render: () => (
    <TaskwireMessagesProvider locale="en">
      <StateGrid cells={componentStates.CreditCostPreview(englishSample)} />
    </TaskwireMessagesProvider>
  ),
  play: async ({ canvas }) => {
    await expect(canvas.getAllByText('Getting the price…')).toHaveLength(2);
    await expect(canvas.getAllByText('No price quoted')).toHaveLength(2);
    await expect(canvas.getAllByText('Free')).toHaveLength(4);
    await expect(canvas.getAllByText('7.5 credits')).toHaveLength(6);
    await expect(canvas.getAllByText('Updating…')).toHaveLength(2);
    await expect(canvas.getAllByText(/More than your balance of 5 credits/)).toHaveLength(2);
    await expect(canvas.getAllByRole('button', { name: 'Try again' })).toHaveLength(2);
  },
};
