import type { Meta, StoryObj } from '@storybook/react-vite';
import { useId, useState } from 'react';
import { expect, within } from 'storybook/test';
import { TaskStatusBadge, UsageBreakdown, useExecuteTask } from '../../src/index.js';
import { liveService } from './live-service.js';
import { tabTo, timeFor } from './live-story-tools.js';

/** Args of the live breakdown. */
interface GenerateImagesArgs {
  /** Images to make, 1–8. */
  count: number;
}

/** UsageBreakdown of a finished `generate-images` run (Execute), with its failed safety check. */
function GeneratedImagesUsage({ count }: GenerateImagesArgs) {
  const promptId = useId();
  const [prompt, setPrompt] = useState('a lighthouse at dusk');
  const execute = useExecuteTask('generate-images');
  return (
    <>
      <div className="live-field">
        <label htmlFor={promptId}>Prompt</label>
        <input id={promptId} value={prompt} onChange={(event) => setPrompt(event.target.value)} />
      </div>
      <div className="live-actions">
        <button
          type="button"
          className="taskwire-button"
          disabled={execute.isPending || prompt === ''}
          onClick={() => execute.mutate({ params: { prompt, count } })}
        >
          Generate {count} {count === 1 ? 'image' : 'images'}
        </button>
        <TaskStatusBadge
          status={execute.isPending ? 'running' : (execute.data?.status ?? 'idle')}
        />
      </div>
      {execute.error && (
        <p role="alert" className="live-alert">
          {execute.error.message}
        </p>
      )}
      {execute.data && <UsageBreakdown usage={execute.data.usage} locale="en" />}
    </>
  );
}

const meta = {
  title: 'Live/UsageBreakdown',
  component: GeneratedImagesUsage,
  ...liveService<GenerateImagesArgs>(),
  args: { count: 2 },
  argTypes: { count: { control: { type: 'range', min: 1, max: 8, step: 1 } } },
} satisfies Meta<typeof GeneratedImagesUsage>;

export default meta;
type Story = StoryObj<typeof meta>;

/**
 * Generate images with the keyboard only, then read what was charged: image-gen 2 × count,
 * upscale 0.5 × count, and the failed safety check marked "Not charged (failed)" and left out of
 * the total.
 */
export const GenerateImagesCharge: Story = {
  name: 'What generating images charged',
  parameters: {
    liveScreen: {
      summary: 'What a finished run charged, tool by tool; a failed step costs nothing.',
    },
  },
  play: async ({ canvas, userEvent, args }) => {
    await tabTo(userEvent, canvas.getByRole('button', { name: `Generate ${args.count} images` }));
    await userEvent.keyboard(' ');
    const table = await canvas.findByRole('table', { name: 'Credits used' }, timeFor(1000));
    const rows = within(table).getAllByRole('row');
    await expect(rows.map((row) => row.textContent)).toEqual([
      'ToolPriceAmountCredits',
      `image-gen2${args.count}${2 * args.count}`,
      `upscale0.5${args.count}${0.5 * args.count}`,
      'safety-check11Not charged (failed)',
      `Total${2.5 * args.count}`,
    ]);
    await expect(within(table).getByText('Not charged (failed)')).toBeVisible();
    await expect(canvas.getByText('Completed', { selector: '.taskwire-badge' })).toBeVisible();
    await expect(canvas.queryByRole('alert')).toBeNull();
  },
};
