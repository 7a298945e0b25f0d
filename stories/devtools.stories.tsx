import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor, within } from 'storybook/test';
import {
  CreditCostPreview,
  TaskProgress,
  useSubmitTask,
  useTaskOptions,
  useTaskResult,
  useTaskStream,
  type JsonObject,
} from '../src/index.js';
import { TaskwireDevtools, type TaskwireDevtoolsProps } from '../src/devtools/index.js';
// The mount without the production check: a static Storybook is a production build, where
// `TaskwireDevtools` renders nothing by design, and this story must show the panel there too.
import { DevtoolsMount } from '../src/devtools/devtools-mount.js';
import { liveService } from './live/live-service.js';
import {
  pressWithKeyboard,
  previewPropsOf,
  streamProgressPropsOf,
  timeFor,
} from './live/live-story-tools.js';

const TRANSLATION = { text: 'Hello, world', targetLanguage: 'de' };

/** A flow's controls in a row. */
const ROW = { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '0.75rem' } as const;

/** Streams render-video with `useTaskStream`. */
function StreamedTask() {
  const stream = useTaskStream('render-video');
  return (
    <div style={ROW}>
      <button
        type="button"
        className="taskwire-button"
        onClick={() => stream.start({ frames: 10, frameMs: 100 })}
      >
        Stream render-video
      </button>
      <TaskProgress label="render-video" {...streamProgressPropsOf(stream)} />
    </div>
  );
}

/** Submits `task` with `params` and polls its record; the button is off while `disabled`. */
function SubmittedTask({
  task,
  params,
  disabled = false,
}: {
  task: string;
  params: JsonObject;
  disabled?: boolean;
}) {
  const submit = useSubmitTask(task);
  const result = useTaskResult(task, submit.data?.id);
  return (
    <div style={ROW}>
      <button
        type="button"
        className="taskwire-button"
        disabled={disabled}
        onClick={() => submit.mutate({ params })}
      >
        {`Submit ${task}`}
      </button>
      <TaskProgress label={task} status={result.data?.status ?? 'idle'} />
    </div>
  );
}

/** Quotes translate-text, then submits it and polls its record. */
function PolledTask() {
  const quote = useTaskOptions('translate-text', TRANSLATION);
  return (
    <CreditCostPreview {...previewPropsOf(quote)}>
      {({ canStart }) => (
        <SubmittedTask task="translate-text" params={TRANSLATION} disabled={!canStart} />
      )}
    </CreditCostPreview>
  );
}

/** Three live flows on the left, the devtools panel watching the same client on the right. */
function DevtoolsBesideFlows() {
  return (
    <div style={{ display: 'grid', gap: '1rem' }}>
      <section aria-label="Live flows" style={{ display: 'grid', gap: '0.75rem' }}>
        <StreamedTask />
        <PolledTask />
        <SubmittedTask task="failing-task" params={{ reason: 'OUT_OF_FRAMES' }} />
      </section>
      <DevtoolsMount initialIsOpen placement="inline" />
    </div>
  );
}

const meta = {
  title: 'Devtools/TaskwireDevtools',
  component: TaskwireDevtools,
  ...liveService<TaskwireDevtoolsProps>(),
  args: { initialIsOpen: true, placement: 'inline' },
  argTypes: {
    initialIsOpen: { control: 'boolean' },
    placement: { control: 'inline-radio', options: ['corner', 'inline'] },
  },
} satisfies Meta<typeof TaskwireDevtools>;

export default meta;
type Story = StoryObj<typeof meta>;

/**
 * The panel beside live flows against the reference service: stream a render, quote and submit
 * a translation, submit a task that fails, and read each one's timeline in the panel.
 */
export const BesideLiveFlows: Story = {
  name: 'Beside live flows',
  render: () => <DevtoolsBesideFlows />,
  play: async ({ canvas, userEvent }) => {
    // The translation is submitted at its price, once the price is on screen.
    await expect(await canvas.findByText('1 credit', {}, timeFor(0))).toBeVisible();
    for (const name of ['Stream render-video', 'Submit translate-text', 'Submit failing-task']) {
      await pressWithKeyboard(userEvent, canvas.getByRole('button', { name }), 20);
    }
    // The panel loads on demand: on a busy machine it may come after the clicks.
    const panel = await canvas.findByRole('region', { name: 'Taskwire devtools' }, timeFor(5000));
    const list = () => within(panel).getByRole('list', { name: 'Tasks' });
    const details = () => within(panel).getByRole('region', { name: /^Task / });
    await waitFor(() => {
      const tasks = within(list()).getAllByRole('button');
      expect(
        tasks.some((task) => /render-video stream · completed/.test(task.textContent ?? '')),
      ).toBe(true);
      expect(
        tasks.some((task) => /translate-text submit · completed/.test(task.textContent ?? '')),
      ).toBe(true);
      expect(
        tasks.some((task) => /failing-task submit · failed/.test(task.textContent ?? '')),
      ).toBe(true);
    }, timeFor(6000));

    await userEvent.click(within(list()).getByRole('button', { name: /render-video stream/ }));
    await expect(within(details()).getByText(/Completed · charged 5 credits/)).toBeVisible();
    await userEvent.click(within(list()).getByRole('button', { name: /translate-text submit/ }));
    await expect(within(details()).getByText(/Poll: COMPLETED .* charged 1 credit$/)).toBeVisible();
    await userEvent.click(within(list()).getByRole('button', { name: /failing-task submit/ }));
    await expect(within(details()).getByText(/Poll: FAILED .*: OUT_OF_FRAMES/)).toBeVisible();
  },
};

/**
 * The public component as an app mounts it, closed: a toggle in the page's corner (in a static
 * Storybook, a production build, it renders nothing, as it would in an app's production build).
 */
export const AsAppsMountIt: Story = {
  name: 'As an app mounts it',
  args: { initialIsOpen: false, placement: 'corner' },
};
