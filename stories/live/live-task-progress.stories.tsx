import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import {
  streamDisplayStatus,
  TaskEventList,
  TaskProgress,
  TaskStatusBadge,
  useTaskStream,
} from '../../src/index.js';
import { liveService } from './live-service.js';
import { field, pressWithKeyboard, streamProgressPropsOf, timeFor } from './live-story-tools.js';

/** Params of render-video, picked in the controls. */
interface RenderVideoArgs {
  /** Frames to render, 1–500. */
  frames: number;
  /** Nominal milliseconds per frame. */
  frameMs: number;
}

/** TaskProgress driven by `useTaskStream('render-video')`: one line of glue per prop. */
function StreamedRenderVideo({ frames, frameMs }: RenderVideoArgs) {
  const stream = useTaskStream('render-video', { maxEvents: 6 });
  const busy = stream.status === 'connecting' || stream.status === 'streaming';
  const framesSoFar = field(stream.partialResult, 'frames');
  const url = field(stream.result, 'url');
  return (
    <>
      <div className="live-actions">
        <button
          type="button"
          className="taskwire-button"
          disabled={busy}
          onClick={() => stream.start({ frames, frameMs })}
        >
          Render video
        </button>
        <TaskStatusBadge status={streamDisplayStatus(stream)} />
      </div>
      <TaskProgress label="Render video" {...streamProgressPropsOf(stream)} />
      <p className="live-note">
        {typeof framesSoFar === 'number'
          ? `Partial result: ${framesSoFar} of ${frames} frames rendered.`
          : 'No partial result yet.'}
      </p>
      {typeof url === 'string' && <p className="live-note">Video ready: {url}</p>}
      <TaskEventList label="Latest events" events={stream.events} />
    </>
  );
}

const meta = {
  title: 'Live/TaskProgress',
  component: StreamedRenderVideo,
  ...liveService<RenderVideoArgs>(),
  args: { frames: 20, frameMs: 150 },
  argTypes: {
    frames: { control: { type: 'range', min: 1, max: 200, step: 1 } },
    frameMs: { control: { type: 'range', min: 10, max: 1000, step: 10 } },
  },
} satisfies Meta<typeof StreamedRenderVideo>;

export default meta;
type Story = StoryObj<typeof meta>;

/**
 * Render a video over a real stream, with the keyboard only: Tab to "Render video", Enter, then
 * watch the bar fill, partial results and custom events arrive, and the task complete.
 */
export const RenderVideoStream: Story = {
  name: 'Render a video over a stream',
  parameters: {
    liveScreen: {
      summary: 'TaskProgress driven by a live stream: progress, partial results, events.',
    },
  },
  play: async ({ canvas, userEvent, args }) => {
    const bar = canvas.getByRole('progressbar', { name: 'Render video' });
    await expect(bar).toHaveAttribute('aria-valuetext', 'Not started');
    await pressWithKeyboard(userEvent, canvas.getByRole('button', { name: 'Render video' }));
    await expect(
      await canvas.findByText(/^Video ready: /, {}, timeFor(args.frames * args.frameMs)),
    ).toBeVisible();
    await expect(bar).toHaveAttribute('aria-valuetext', 'Completed');
    await expect(bar).toHaveAttribute('aria-valuenow', '100');
    await expect(canvas.getByText('Completed', { selector: '.taskwire-badge' })).toBeVisible();
    await expect(canvas.getAllByText('frame-rendered').length).toBeGreaterThan(0);
  },
};
