import type { Meta, StoryObj } from '@storybook/react-vite';
import { useId, useState } from 'react';
import { expect, waitFor } from 'storybook/test';
import {
  CreditCostPreview,
  streamDisplayStatus,
  TaskProgress,
  TaskStatusBadge,
  useExecuteTask,
  useSubmitTask,
  useTaskOptions,
  useTaskResult,
  useTaskStream,
  type JsonObject,
} from '../../src/index.js';
import { useImageCountField } from './image-count-field.js';
import { pastExecuteLimitSeconds } from './live-service-config.js';
import { liveMode, liveService, liveTiming, type LiveFetch } from './live-service.js';
import {
  field,
  pressWithKeyboard,
  previewPropsOf,
  streamProgressPropsOf,
  tabTo,
  type StreamProgress,
  timeFor,
} from './live-story-tools.js';
import { cutStreamBody } from '../../test/support/cut-stream-body.js';
import { Fact, Facts, LiveSection } from './live-screen.js';
import { ResultSection, TaskRecordView } from './task-record-view.js';

/** The demo tasks a flow can run, picked in the controls. */
const DEMO_TASKS = [
  'render-video',
  'generate-images',
  'translate-text',
  'failing-task',
  'slow-report',
  'export-data',
  'echo',
] as const;

/** Args of the submit-then-poll flow. */
interface SubmitArgs {
  /** The demo task. */
  task: (typeof DEMO_TASKS)[number];
  /** Its params, as JSON. */
  params: JsonObject;
}

/** Submit (`useSubmitTask`), then poll (`useTaskResult`) until the task ends. */
function SubmitThenPoll({ task, params }: SubmitArgs) {
  const submit = useSubmitTask(task);
  const result = useTaskResult(task, submit.data?.id);
  // Counted here, since the query result does not say how often it was answered: one more each
  // time `dataUpdatedAt` moves (adjusted while rendering, not in an effect).
  const [answers, setAnswers] = useState({ count: 0, at: 0 });
  if (result.dataUpdatedAt > answers.at) {
    setAnswers({ count: answers.count + 1, at: result.dataUpdatedAt });
  }
  return (
    <>
      <div className="live-actions">
        <button
          type="button"
          className="taskwire-button"
          disabled={submit.isPending}
          onClick={() => submit.mutate({ params })}
        >
          Submit {task}
        </button>
      </div>
      {submit.error && (
        <p role="alert" className="live-alert">
          {submit.error.message}
        </p>
      )}
      <TaskRecordView label={task} record={result.data}>
        <p className="live-note">
          {result.data ? `Get Result answers so far: ${answers.count}.` : 'Not submitted yet.'}
        </p>
      </TaskRecordView>
    </>
  );
}

const meta = {
  title: 'Flows',
  component: SubmitThenPoll,
  ...liveService<SubmitArgs>(),
  args: { task: 'render-video', params: { frames: 20, frameMs: 150 } },
  argTypes: {
    task: { control: 'select', options: DEMO_TASKS },
    params: { control: 'object' },
  },
} satisfies Meta<typeof SubmitThenPoll>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Pick any demo task and params in the controls; Tab to Submit, Enter, and watch the polls. */
export const SubmitThenPollRecord: Story = {
  name: 'Submit then poll',
  parameters: {
    liveScreen: {
      summary:
        'Submit a task with useSubmitTask, then poll its record with useTaskResult until it ends.',
    },
  },
  play: async ({ canvas, userEvent }) => {
    await pressWithKeyboard(userEvent, canvas.getByRole('button', { name: 'Submit render-video' }));
    await expect(
      await canvas.findByText('Completed', { selector: '.taskwire-badge' }, timeFor(3000)),
    ).toBeVisible();
    const result = canvas.getByRole('region', { name: 'Result' });
    await expect(result).toHaveTextContent('"frames": 20');
    await expect(canvas.getByRole('table', { name: 'Credits used' })).toHaveTextContent(
      'video-render',
    );
    await expect(canvas.getByText(/^Get Result answers so far: [1-9]\d*\.$/)).toBeVisible();
  },
};

/** Submit a task that fails: the bar stops, the failure and its reason are shown as text. */
export const FailingTask: Story = {
  name: 'A failing task',
  parameters: {
    liveScreen: {
      summary:
        'A task that fails on purpose: the bar stops, and the failure and its reason are shown.',
    },
  },
  args: { task: 'failing-task', params: { reason: 'OUT_OF_FRAMES' } },
  play: async ({ canvas, userEvent }) => {
    await pressWithKeyboard(userEvent, canvas.getByRole('button', { name: 'Submit failing-task' }));
    await expect(
      await canvas.findByText('The demo task failed on purpose.', {}, timeFor(100)),
    ).toBeVisible();
    await expect(canvas.getByText('Reason: OUT_OF_FRAMES')).toBeVisible();
    await expect(canvas.getByRole('progressbar', { name: 'failing-task' })).toHaveAttribute(
      'aria-valuetext',
      'Failed',
    );
    await expect(canvas.queryByRole('region', { name: 'Result' })).toBeNull();
  },
};

/**
 * What both stream flows show of a render-video stream: the start button (`onStart`), its badge and
 * status, and the progress bar.
 */
function RenderVideoStream({ stream, onStart }: { stream: StreamProgress; onStart: () => void }) {
  const busy = stream.status === 'connecting' || stream.status === 'streaming';
  return (
    <>
      <div className="live-actions">
        <button type="button" className="taskwire-button" disabled={busy} onClick={onStart}>
          Stream render-video
        </button>
        <TaskStatusBadge status={streamDisplayStatus(stream)} />
        <p className="live-note">Stream status: {stream.status}</p>
      </div>
      <TaskProgress label="Render video" {...streamProgressPropsOf(stream)} />
    </>
  );
}

/** A stream of render-video, with each partial result listed as it comes. */
function StreamWithPartials({ frames, frameMs }: { frames: number; frameMs: number }) {
  const stream = useTaskStream('render-video');
  const [partials, setPartials] = useState<number[]>([]);
  const framesSoFar = field(stream.partialResult, 'frames');
  // Each new partial result is added while rendering ("storing information from previous
  // renders"), not in an effect, so the list never lags a render behind.
  if (typeof framesSoFar === 'number' && partials.at(-1) !== framesSoFar) {
    setPartials([...partials, framesSoFar]);
  }
  return (
    <>
      <RenderVideoStream
        stream={stream}
        onStart={() => {
          setPartials([]);
          stream.start({ frames, frameMs });
        }}
      />
      <LiveSection heading="Partial results">
        {partials.length === 0 && <p className="live-note">None yet.</p>}
        <ol className="live-chips" aria-label="Partial results">
          {partials.map((count, index) => (
            <li key={index}>{count} frames rendered</li>
          ))}
        </ol>
      </LiveSection>
      {stream.status === 'completed' && <ResultSection value={stream.result} />}
    </>
  );
}

/** Stream render-video: progress every frame and a partial result every 5 frames, listed. */
export const StreamWithPartialResults: Story = {
  name: 'Stream with progress and partial results',
  parameters: {
    liveScreen: {
      summary: 'useTaskStream: progress on every frame, a partial result on every fifth.',
    },
  },
  render: () => <StreamWithPartials frames={20} frameMs={1000} />,
  play: async ({ canvas, userEvent }) => {
    await pressWithKeyboard(userEvent, canvas.getByRole('button', { name: 'Stream render-video' }));
    const bar = canvas.getByRole('progressbar', { name: 'Render video' });
    await expect(await canvas.findByText('5 frames rendered', {}, timeFor(5000))).toBeVisible();
    await waitFor(() =>
      expect(bar.closest('[data-state]')).toHaveAttribute('data-state', 'running'),
    );
    await expect(
      await canvas.findByText('Stream status: completed', {}, timeFor(20_000)),
    ).toBeVisible();
    const listed = canvas.getAllByRole('listitem').map((item) => item.textContent);
    await expect(listed).toContain('10 frames rendered');
    await expect(listed).toContain('15 frames rendered');
    await expect(bar).toHaveAttribute('aria-valuenow', '100');
  },
};

/** Preview the price of a translation (`useTaskOptions`), then submit it and compare the charge. */
function PreviewThenSubmit() {
  const textId = useId();
  const [text, setText] = useState('Guten Morgen, wie geht es Ihnen?');
  const params = { text, targetLanguage: 'en' };
  const options = useTaskOptions('translate-text', text === '' ? undefined : params);
  const submit = useSubmitTask('translate-text');
  const result = useTaskResult('translate-text', submit.data?.id);
  return (
    <>
      <div className="live-field">
        <label htmlFor={textId}>Text to translate</label>
        <textarea
          id={textId}
          rows={3}
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
      </div>
      <CreditCostPreview {...previewPropsOf(options)} balance={10} locale="en">
        {({ canStart }) => (
          <button
            type="button"
            className="taskwire-button"
            disabled={!canStart || submit.isPending}
            onClick={() => submit.mutate({ params })}
          >
            Translate
          </button>
        )}
      </CreditCostPreview>
      <TaskRecordView label="Translation" record={result.data} quote={options.data} />
    </>
  );
}

/** The quote first, then the run; the usage table says whether it was charged as quoted. */
export const PreviewCostThenSubmit: Story = {
  name: 'Preview cost then submit',
  parameters: {
    liveScreen: {
      summary: 'The price first (useTaskOptions), then the run: was it charged as quoted?',
    },
  },
  render: () => <PreviewThenSubmit />,
  play: async ({ canvas, userEvent }) => {
    await expect(await canvas.findByText('1 credit', {}, timeFor(0))).toBeVisible();
    await pressWithKeyboard(userEvent, canvas.getByRole('button', { name: 'Translate' }));
    await expect(
      await canvas.findByText('Charged as quoted: 1 credit.', {}, timeFor(3000)),
    ).toBeVisible();
    await expect(canvas.getByRole('region', { name: 'Result' })).toHaveTextContent(
      '[en] Guten Morgen',
    );
  },
};

/** How many quotes the slow-quotes story asked for; the first is answered at once. */
const slowQuotes = { quotes: 0 };

/** Holds every quote after the first `delayMs` before it is answered: a slow network. */
function slowQuotesAfterFirst(delayMs: number, counter: { quotes: number }) {
  return (fetch: LiveFetch): LiveFetch =>
    async (request) => {
      if (new URL(request.url).pathname.endsWith('/options') && counter.quotes++ > 0) {
        await new Promise((resolve) => setTimeout(resolve, delayMs));
      }
      return fetch(request);
    };
}

/** Images priced per count; the Generate button follows the preview's `canStart`. */
function PriceFollowsParams() {
  const { count, field } = useImageCountField();
  const params = { prompt: 'a lighthouse at dusk', count };
  const options = useTaskOptions('generate-images', params);
  const submit = useSubmitTask('generate-images');
  const result = useTaskResult('generate-images', submit.data?.id);
  return (
    <>
      {field}
      <CreditCostPreview {...previewPropsOf(options)} balance={20} locale="en">
        {({ canStart }) => (
          <button
            type="button"
            className="taskwire-button"
            disabled={!canStart || submit.isPending || submit.isSuccess}
            onClick={() => submit.mutate({ params })}
          >
            Generate images
          </button>
        )}
      </CreditCostPreview>
      <TaskRecordView label="Images" record={result.data} quote={options.data} />
    </>
  );
}

/**
 * The quote is the price: on a slow network (every quote after the first takes 1.5 s), a change
 * of count leaves the old price on screen marked "Updating…", and Generate waits until the price of
 * the new count is shown; a click in between starts nothing.
 */
export const NewPriceBeforeStart: Story = {
  name: 'A new price before the start',
  parameters: {
    liveScreen: {
      summary:
        'Change the count: the old price shows as updating, and Generate waits for the new one.',
    },
    liveService: { wrapFetch: slowQuotesAfterFirst(1500, slowQuotes) },
  },
  beforeEach: () => {
    slowQuotes.quotes = 0;
  },
  render: () => <PriceFollowsParams />,
  play: async ({ canvas, canvasElement, userEvent }) => {
    await expect(await canvas.findByText('2.5 credits', {}, timeFor(0))).toBeVisible();
    const generate = canvas.getByRole('button', { name: 'Generate images' });
    await expect(generate).toBeEnabled();

    const count = canvas.getByLabelText('Number of images');
    await tabTo(userEvent, count);
    await userEvent.keyboard('{End}{Backspace}3');
    const preview = canvasElement.querySelector('.taskwire-cost');
    await expect(preview).toHaveAttribute('data-state', 'updating');
    await expect(canvas.getByText('2.5 credits')).toBeVisible();
    await expect(canvas.getByText('Updating…')).toBeVisible();
    await expect(generate).toBeDisabled();
    await userEvent.click(generate);
    await expect(canvas.getByText('Not started', { selector: '.taskwire-badge' })).toBeVisible();

    await expect(await canvas.findByText('7.5 credits', {}, timeFor(3000))).toBeVisible();
    await waitFor(() => expect(preview).toHaveAttribute('data-state', 'priced'), timeFor(0));
    await expect(generate).toBeEnabled();
    await userEvent.click(generate);
    await expect(
      await canvas.findByText('Charged as quoted: 7.5 credits.', {}, timeFor(3000)),
    ).toBeVisible();
  },
};

/** Execute `echo` (`useExecuteTask`): one request, the outcome in its answer. */
function ExecuteEcho() {
  const messageId = useId();
  const [message, setMessage] = useState('Hello from the Storybook');
  const execute = useExecuteTask('echo');
  return (
    <>
      <div className="live-field">
        <label htmlFor={messageId}>Message</label>
        <input
          id={messageId}
          value={message}
          onChange={(event) => setMessage(event.target.value)}
        />
      </div>
      <div className="live-actions">
        <button
          type="button"
          className="taskwire-button"
          disabled={execute.isPending}
          onClick={() => execute.mutate({ params: { message } })}
        >
          Execute echo
        </button>
      </div>
      <Facts>
        <Fact term="Status">
          <TaskStatusBadge status={execute.data?.status ?? 'idle'} />
        </Fact>
      </Facts>
      {execute.data && <ResultSection value={execute.data.result} />}
      {execute.error && (
        <p role="alert" className="live-alert">
          {execute.error.message}
        </p>
      )}
    </>
  );
}

/** Type a message, Execute, read the echo. */
export const Execute: Story = {
  name: 'Execute',
  parameters: {
    liveScreen: { summary: 'useExecuteTask: one request, and the outcome comes in its answer.' },
  },
  render: () => <ExecuteEcho />,
  play: async ({ canvas, userEvent }) => {
    // Under Vitest the stories reach the service over real HTTP on the test server.
    if (liveMode === 'test') {
      await expect(canvas.getByText(/^Live: the reference service at \/taskwire/)).toBeVisible();
    }
    await tabTo(userEvent, canvas.getByLabelText('Message'));
    await userEvent.keyboard('Hi there');
    await userEvent.tab();
    await expect(canvas.getByRole('button', { name: 'Execute echo' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    const result = await canvas.findByRole('region', { name: 'Result' }, timeFor(0));
    await expect(result).toHaveTextContent('"echo": "Hi there"');
    await expect(canvas.getByText('Completed', { selector: '.taskwire-badge' })).toBeVisible();
  },
};

/** Execute `slow-report` past the service's limit; on the 504 follow the task with Get Result. */
function ExecutePastLimit({ seconds }: { seconds: number }) {
  const execute = useExecuteTask('slow-report');
  const timedOutId = execute.error?.code === 'timeout' ? execute.error.taskId : undefined;
  const result = useTaskResult('slow-report', timedOutId);
  return (
    <>
      <div className="live-actions">
        <button
          type="button"
          className="taskwire-button"
          disabled={execute.isPending}
          onClick={() => execute.mutate({ params: { seconds } })}
        >
          Make the report
        </button>
      </div>
      <p className="live-note">
        {execute.isPending
          ? `Waiting for Execute (the service answers within ${liveTiming.executeTimeoutMs / 1000} s)…`
          : timedOutId
            ? 'Execute ran past its limit (504); following the task with Get Result.'
            : execute.error
              ? execute.error.message
              : 'Not started.'}
      </p>
      {timedOutId && <TaskRecordView label="Report" record={result.data} />}
    </>
  );
}

/**
 * slow-report runs a quarter past the Execute limit (in demo mode about 25 s against 20 s): the
 * 504 carries the task id, and `useTaskResult` follows the task to its end.
 */
export const ExecutePastTheLimit: Story = {
  name: 'Execute past the limit, then follow',
  render: () => <ExecutePastLimit seconds={pastExecuteLimitSeconds(liveTiming)} />,
  parameters: {
    liveScreen: {
      summary:
        'Execute runs past the service’s limit; the 504 names the task, and Get Result follows it.',
    },
    // The 504 is the answer this story shows; over real HTTP the browser logs it, which
    // scripts/check-static-storybook.mjs accepts only from a story that names it here.
    expectedHttpErrors: [504],
  },
  play: async ({ canvas, userEvent }) => {
    const nominalMs = pastExecuteLimitSeconds(liveTiming) * 1000;
    await pressWithKeyboard(userEvent, canvas.getByRole('button', { name: 'Make the report' }));
    await expect(
      await canvas.findByText(/^Execute ran past its limit \(504\)/, {}, timeFor(nominalMs)),
    ).toBeVisible();
    await expect(
      await canvas.findByText('Completed', { selector: '.taskwire-badge' }, timeFor(nominalMs)),
    ).toBeVisible();
    await expect(canvas.getByRole('region', { name: 'Result' })).toHaveTextContent('.pdf');
  },
};

/** What the dropped-stream stories count of the client's requests. */
interface DroppedStreamCounts {
  /** Stream POSTs (each would be a new task). */
  streams: number;
  /** Reads of the tasks' logs (the page's multiplexed read). */
  logReads: number;
  /** Get Result reads. */
  polls: number;
}

/**
 * Cuts each stream's body after `chunks` chunks (a dropped connection), counting the requests; with
 * `logReads: 'refused'`, the log reads are answered as by a gateway that routes only the interface
 * document's endpoints (404 `NOT_FOUND`), so the page falls back to Get Result as in 0.3.
 */
function cutStreamsAfter(
  chunks: number,
  counts: DroppedStreamCounts,
  logReads: 'served' | 'refused' = 'served',
) {
  return (fetch: LiveFetch): LiveFetch =>
    async (request) => {
      const path = new URL(request.url).pathname;
      if (path.endsWith('/events')) {
        counts.logReads += 1;
        if (logReads === 'refused') {
          return Response.json(
            { status: 'error', statusCode: 404, reason: 'NOT_FOUND', message: 'No such route.' },
            { status: 404 },
          );
        }
      }
      if (request.method === 'GET' && !path.endsWith('/events')) counts.polls += 1;
      const response = await fetch(request);
      if (!path.endsWith('/stream')) return response;
      counts.streams += 1;
      return cutStreamBody(response, chunks);
    };
}

const droppedStreams: DroppedStreamCounts = { streams: 0, logReads: 0, polls: 0 };

/** A stream whose connection drops, with what it took to go on and the frames it was told of. */
function DroppedStream() {
  const [frames, setFrames] = useState<number[]>([]);
  const stream = useTaskStream('render-video', {
    onEvent: (event) => {
      const frame = field(event, 'frame');
      if (typeof frame === 'number') setFrames((seen) => [...seen, frame]);
    },
  });
  return (
    <>
      <RenderVideoStream
        stream={stream}
        onStart={() => {
          setFrames([]);
          stream.start({ frames: 20, frameMs: 500 });
        }}
      />
      <p className="live-note">Streams opened: {droppedStreams.streams}</p>
      <p className="live-note">Log reads: {droppedStreams.logReads}</p>
      <p className="live-note">Get Result reads: {droppedStreams.polls}</p>
      <p className="live-note">
        Frame events: {frames.length} ({new Set(frames).size} different)
      </p>
      {stream.status === 'completed' && <ResultSection value={stream.result} />}
    </>
  );
}

/**
 * The stream's connection drops after a few chunks. The reference service offers resumable streams
 * (docs/protocol.md, "Resumable streams (0.4)"), so the page reads the task's log on after the last
 * position it had: the status stays `streaming`, every frame's event comes once with its payload,
 * no Get Result is needed, and the task is posted once.
 */
export const DroppedStreamReadOn: Story = {
  name: 'A dropped stream read on from its log',
  render: () => <DroppedStream />,
  parameters: {
    liveScreen: {
      summary:
        'The stream’s connection drops; the page reads the task’s log on from its last position, never a second submit.',
    },
    liveService: { wrapFetch: cutStreamsAfter(3, droppedStreams) },
  },
  beforeEach: () => {
    Object.assign(droppedStreams, { streams: 0, logReads: 0, polls: 0 });
  },
  play: async ({ canvas, userEvent }) => {
    await pressWithKeyboard(userEvent, canvas.getByRole('button', { name: 'Stream render-video' }));
    await expect(
      await canvas.findByText('Stream status: completed', {}, timeFor(10_000)),
    ).toBeVisible();
    await expect(canvas.getByText('Frame events: 20 (20 different)')).toBeVisible();
    await expect(canvas.getByText('Streams opened: 1')).toBeVisible();
    await expect(canvas.getByText('Get Result reads: 0')).toBeVisible();
    expect(droppedStreams.logReads).toBeGreaterThanOrEqual(1);
  },
};

/**
 * The same drop where the log cannot be read (a gateway that routes only the interface document's
 * endpoints answers the log reads 404 `NOT_FOUND`): the status turns `recovering`, still shown as
 * running while Get Result answers (reconnecting only while those reads fail: docs/protocol.md,
 * "The hooks"), the outcome comes from Get Result (polled, never a second POST), and the task ends
 * `completed`.
 */
export const DroppedStreamRecovering: Story = {
  name: 'A dropped stream recovering',
  render: () => <DroppedStream />,
  parameters: {
    liveScreen: {
      summary:
        'The stream’s connection drops and its log cannot be read; the outcome is read with Get Result, never a second submit.',
    },
    liveService: { wrapFetch: cutStreamsAfter(3, droppedStreams, 'refused') },
  },
  beforeEach: () => {
    Object.assign(droppedStreams, { streams: 0, logReads: 0, polls: 0 });
  },
  play: async ({ canvas, userEvent }) => {
    await pressWithKeyboard(userEvent, canvas.getByRole('button', { name: 'Stream render-video' }));
    const bar = canvas.getByRole('progressbar', { name: 'Render video' });
    // Read in one pass of the page, since the same render shows the status and the bar.
    await waitFor(() => {
      expect(canvas.getByText('Stream status: recovering')).toBeVisible();
      expect(bar).toHaveAttribute('data-state', 'running');
      expect(canvas.getByText('Running', { selector: '.taskwire-badge' })).toBeVisible();
      expect(canvas.queryByText('Reconnecting…')).toBeNull();
    }, timeFor(2000));
    await expect(
      await canvas.findByText('Stream status: completed', {}, timeFor(10_000)),
    ).toBeVisible();
    await expect(canvas.getByRole('progressbar', { name: 'Render video' })).toHaveAttribute(
      'aria-valuetext',
      'Completed',
    );
    await expect(canvas.getByText('Streams opened: 1')).toBeVisible();
  },
};
