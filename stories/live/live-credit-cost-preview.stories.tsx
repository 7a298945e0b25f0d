import type { Meta, StoryObj } from '@storybook/react-vite';
import { useId, useState } from 'react';
import { expect, waitFor } from 'storybook/test';
import { CreditCostPreview, useTaskOptions } from '../../src/index.js';
import { useImageCountField } from './image-count-field.js';
import { liveService } from './live-service.js';
import { previewPropsOf, tabTo, timeFor } from './live-story-tools.js';

/** Args of the live previews. */
interface PreviewArgs {
  /** The user's credits; a higher price is flagged and disables the submit button. */
  balance: number;
  /** Locale of the figures. */
  locale: string;
}

/**
 * The submit button a page would put under the preview, enabled on the preview's `canStart`: at a
 * current price within the balance, never while the price is loading, updating or over budget.
 */
function SubmitButton({ label, enabled }: { label: string; enabled: boolean }) {
  return (
    <button type="button" className="taskwire-button" disabled={!enabled}>
      {label}
    </button>
  );
}

/** `translate-text` is priced by the service's Options (preflight): 1 credit per started 100 characters. */
function TranslateTextPreview({ balance, locale }: PreviewArgs) {
  const textId = useId();
  const lengthId = useId();
  const [text, setText] = useState('Bonjour tout le monde');
  const options = useTaskOptions(
    'translate-text',
    text === '' ? undefined : { text, targetLanguage: 'en' },
  );
  return (
    <>
      <div className="live-field">
        <label htmlFor={textId}>Text to translate</label>
        <textarea
          id={textId}
          rows={4}
          aria-describedby={lengthId}
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
        <p id={lengthId} className="live-note">
          {text.length} characters
        </p>
      </div>
      <CreditCostPreview {...previewPropsOf(options)} balance={balance} locale={locale}>
        {({ canStart }) => <SubmitButton label="Translate" enabled={canStart} />}
      </CreditCostPreview>
    </>
  );
}

/** `generate-images` quotes by preflight: 2.5 credits per image (image-gen 2, upscale 0.5). */
function GenerateImagesPreview({ balance, locale }: PreviewArgs) {
  const { count, field } = useImageCountField();
  const options = useTaskOptions('generate-images', { prompt: 'a lighthouse at dusk', count });
  return (
    <>
      {field}
      <CreditCostPreview {...previewPropsOf(options)} balance={balance} locale={locale}>
        {({ canStart }) => <SubmitButton label="Generate images" enabled={canStart} />}
      </CreditCostPreview>
    </>
  );
}

const meta = {
  title: 'Live/CreditCostPreview',
  component: TranslateTextPreview,
  ...liveService<PreviewArgs>(),
  args: { balance: 5, locale: 'en' },
  argTypes: {
    balance: { control: { type: 'number', min: 0 } },
    locale: { control: 'select', options: ['en', 'de', 'fr', 'ja'] },
  },
} satisfies Meta<typeof TranslateTextPreview>;

export default meta;
type Story = StoryObj<typeof meta>;

/**
 * The price of a translation follows the text, with the keyboard only: Tab into the text, type
 * past 100 characters, and the quote goes from 1 credit to 2 (the old one shown, marked, while the
 * new one loads); past the balance of 5 credits the Translate button is disabled.
 */
export const TranslateText: Story = {
  name: 'Translate text',
  parameters: {
    liveScreen: { summary: 'The price of a translation follows the text as you type.' },
  },
  play: async ({ canvas, userEvent }) => {
    await expect(await canvas.findByText('1 credit', {}, timeFor(0))).toBeVisible();
    await expect(canvas.getByText('translate')).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Translate' })).toBeEnabled();

    const text = canvas.getByLabelText('Text to translate');
    await tabTo(userEvent, text);
    // Tab selects the whole text, as browsers do; End puts the caret after it.
    await userEvent.keyboard('{End}');
    await userEvent.keyboard(' et bonne journée à vous tous, '.repeat(3));
    await expect(await canvas.findByText('2 credits', {}, timeFor(0))).toBeVisible();

    // Pasted (Ctrl+V), as 400 key presses would only make the story slow.
    await userEvent.paste('x'.repeat(400));
    await expect(await canvas.findByText('6 credits', {}, timeFor(0))).toBeVisible();
    await expect(canvas.getByText(/More than your balance of 5 credits\./)).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Translate' })).toBeDisabled();
  },
};

/**
 * `generate-images` quotes by preflight (docs/protocol.md, "Options"): 2.5 credits per image, what
 * the run then charges (Live/UsageBreakdown). Changing the count asks again and the quote follows.
 * With a balance of 1 credit the Generate button stays disabled.
 */
export const GenerateImages: Story = {
  name: 'Generate images',
  parameters: {
    liveScreen: { summary: 'Images are priced per image; over the balance, Generate is disabled.' },
  },
  render: (args) => <GenerateImagesPreview {...args} />,
  args: { balance: 1 },
  play: async ({ canvas, userEvent }) => {
    await expect(await canvas.findByText('2.5 credits', {}, timeFor(0))).toBeVisible();
    await expect(canvas.getByText('image-gen')).toBeVisible();
    await expect(canvas.getByText(/More than your balance of 1 credit\./)).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Generate images' })).toBeDisabled();

    const count = canvas.getByLabelText('Number of images');
    await tabTo(userEvent, count);
    await userEvent.keyboard('{End}{Backspace}3');
    await expect(count).toHaveValue(3);
    await expect(await canvas.findByText('7.5 credits', {}, timeFor(0))).toBeVisible();
    const preview = canvas.getByText('7.5 credits').closest('.taskwire-cost');
    await waitFor(() => expect(preview).not.toHaveAttribute('data-updating'), timeFor(0));
    await expect(preview).toHaveAttribute('data-state', 'priced');
  },
};
