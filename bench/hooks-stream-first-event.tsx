/**
 * Time to first event: from `useTaskStream().start` to the commit that first shows the task's
 * progress, against a naive consumer that runs `fetch` → `TextDecoderStream` →
 * `EventSourceParserStream` and calls `setState` on the first progress, on the same reference
 * service (natively resumable) on a loopback socket. Measured on a fresh page (the client has not
 * yet heard that the service offers resumable streams, so `start` posts the stream) and on a page
 * that has (`start` is the short start, and the page's one read follows the task).
 */
import { frames } from './hooks-dom.js';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useState, type ReactNode } from 'react';
import * as z from 'zod/mini';
import { createTaskClient } from '../src/client/index.js';
import { TaskwireProvider, useTaskStream } from '../src/react/index.js';
import { defineTask, DEMO_CLIENT_TOKEN, DEMO_USER_TOKEN } from '../src/reference/index.js';
import { goalLine, verdict, type BenchGoal, type BenchReport } from './bench-report.js';
import { mount, reactBuild, until } from './hooks-kit.js';
import {
  demoHeaders,
  formatMs,
  percentile,
  readServerSentEvents,
  startLoopbackService,
} from './resumable-kit.js';

const SAMPLES = 25;
const FRAME_MS = 1000 / 60;

/** Reports progress at once, then again, and completes: its first event is what is timed. */
const quickTask = defineTask({
  name: 'quick',
  params: z.object({ run: z.number() }),
  run: async (context, { run }) => {
    context.progress(10, 1);
    await context.sleep(20);
    context.progress(50, 1);
    await context.sleep(20);
    return { run };
  },
});

type Page = 'fresh page' | 'page that has streamed';

/** When the first progress was committed, and whether the task was seen to complete. */
interface Watch {
  firstProgressAt: number | undefined;
  completed: boolean;
}

/** Told after each commit what it shows. */
type OnShown = (shown: { percent: number | undefined; completed: boolean }) => void;

function HookConsumer(props: {
  onShown: OnShown;
  onReady: (start: (run: number) => void) => void;
}) {
  const { onShown, onReady } = props;
  const stream = useTaskStream('quick');
  const percent = stream.progress?.percent;
  const completed = stream.status === 'completed';
  // Only a streaming or completed state's progress is the new task's (a start resets what the last
  // one showed). A task whose messages all arrive within one frame shows its progress first in the
  // completed state: the hook renders at most once per frame and the final state at once.
  const shown = stream.status === 'streaming' || completed ? percent : undefined;
  useLayoutEffect(() => onShown({ percent: shown, completed }));
  const { start } = stream;
  useEffect(() => onReady((run) => start({ run })), [onReady, start]);
  return (
    <p>
      {stream.status} {percent ?? 0}
    </p>
  );
}

function NaiveConsumer(props: {
  url: string;
  onShown: OnShown;
  onReady: (start: (run: number) => void) => void;
}) {
  const { url, onShown, onReady } = props;
  const [percent, setPercent] = useState<number | undefined>(undefined);
  const [completed, setCompleted] = useState(false);
  useLayoutEffect(() => onShown({ percent, completed }));
  useEffect(() => {
    onReady((run) => {
      setPercent(undefined);
      setCompleted(false);
      void fetch(`${url}/workflows/quick/stream`, {
        method: 'POST',
        headers: demoHeaders('service'),
        body: JSON.stringify({ params: { run } }),
      })
        .then((response) =>
          readServerSentEvents(response, (message) => {
            if (message.type === 'task.progress') setPercent(message.percent as number);
            if (message.type === 'task.completed') setCompleted(true);
          }),
        )
        .catch(() => undefined);
    });
  }, [url, onReady]);
  return <p>{percent ?? 0}</p>;
}

type Consumer = 'useTaskStream' | 'naive fetch → EventSourceParserStream → setState';

/** Opens a page with `consumer`, starts `runs` tasks one after the other; each one's time to first event. */
async function timeStarts(url: string, consumer: Consumer, runs: number, firstRun: number) {
  const client = createTaskClient({
    baseUrl: url,
    userToken: DEMO_USER_TOKEN,
    clientToken: DEMO_CLIENT_TOKEN,
  });
  const queryClient = new QueryClient();
  const Providers = ({ children }: { children?: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <TaskwireProvider client={client}>{children}</TaskwireProvider>
    </QueryClientProvider>
  );
  // One object for the page's life, reset before each start: the consumers hold it.
  const watch: Watch = { firstProgressAt: undefined, completed: false };
  // A commit that still shows the run before counts for nothing: `began` is set before start.
  let began = Number.POSITIVE_INFINITY;
  const onShown: OnShown = ({ percent, completed }) => {
    const now = performance.now();
    if (now < began) return;
    // The first commit that shows the task's progress, even when it is already the completed one.
    if (percent !== undefined) watch.firstProgressAt ??= now;
    if (completed) watch.completed = true;
  };
  let start: ((run: number) => void) | undefined;
  const onReady = (next: (run: number) => void) => {
    start = next;
  };
  const release = frames.hold();
  const view = mount(
    <Providers>
      {consumer === 'useTaskStream' ? (
        <HookConsumer onShown={onShown} onReady={onReady} />
      ) : (
        <NaiveConsumer url={url} onShown={onShown} onReady={onReady} />
      )}
    </Providers>,
  );
  const times: number[] = [];
  try {
    await until(() => start !== undefined, 'the consumer to mount');
    for (let run = 0; run < runs; run += 1) {
      watch.firstProgressAt = undefined;
      watch.completed = false;
      began = performance.now();
      start?.(firstRun + run);
      await until(
        () => watch.firstProgressAt !== undefined,
        `${consumer}'s first progress`,
        10_000,
      );
      times.push((watch.firstProgressAt ?? Number.NaN) - began);
      await until(() => watch.completed, `${consumer}'s task to complete`, 10_000);
    }
    return times;
  } finally {
    view.unmount();
    release();
    queryClient.clear();
  }
}

/** Times both consumers on both pages and reports them with the goal. */
export default async function run(): Promise<BenchReport> {
  const service = await startLoopbackService({ tasks: [quickTask], timeScale: 1 });
  const results = new Map<string, number[]>();
  const consumers: Consumer[] = [
    'useTaskStream',
    'naive fetch → EventSourceParserStream → setState',
  ];
  let runId = 0;
  try {
    // Warm-up: one page of each, not counted.
    for (const consumer of consumers) await timeStarts(service.url, consumer, 2, (runId += 2));
    for (let sample = 0; sample < SAMPLES; sample += 1) {
      for (const consumer of sample % 2 === 0 ? consumers : [...consumers].reverse()) {
        // A fresh page's first start, then a second start on the same page.
        const [fresh, later] = await timeStarts(service.url, consumer, 2, (runId += 2));
        for (const [page, time] of [
          ['fresh page', fresh],
          ['page that has streamed', later],
        ] as const) {
          const key = `${consumer}|${page}`;
          results.set(key, [...(results.get(key) ?? []), time as number]);
        }
      }
    }
  } finally {
    await service.close();
  }
  const timesOf = (consumer: Consumer, page: Page) => results.get(`${consumer}|${page}`) ?? [];
  const rows = consumers.flatMap((consumer) =>
    (['fresh page', 'page that has streamed'] as const).map((page) => {
      const times = timesOf(consumer, page);
      return {
        consumer,
        page,
        samples: times.length,
        'p50 (ms)': percentile(times, 0.5).toFixed(1),
        'p90 (ms)': percentile(times, 0.9).toFixed(1),
        'max (ms)': Math.max(...times).toFixed(1),
      };
    }),
  );
  const benchmark = 'Time to first event';
  const goals: BenchGoal[] = (['fresh page', 'page that has streamed'] as const).map((page) => {
    const ours = percentile(timesOf('useTaskStream', page), 0.5);
    const naive = percentile(timesOf(consumers[1] as Consumer, page), 0.5);
    const gap = ours - naive;
    return {
      benchmark,
      measure: `start → first progress committed, median of ${SAMPLES}, ${page === 'fresh page' ? "a page's first start (the stream POST)" : 'a later start on the page (the short start and the page’s read)'}`,
      figure: formatMs(ours),
      baseline: `fetch → EventSourceParserStream → setState: ${formatMs(naive)}`,
      ratio: `${gap >= 0 ? '+' : '−'}${Math.abs(gap).toFixed(1)} ms`,
      goal: 'within one frame (≤ +16.7 ms)',
      verdict: verdict(gap <= FRAME_MS),
      values: { figure: ours, baseline: naive, ratio: gap },
    };
  });
  return {
    title: `Time to first event: useTaskStream's start to the first progress committed, against fetch → EventSourceParserStream → setState, the reference service (resumable) on loopback, ${SAMPLES} samples each`,
    rows,
    notes: [
      `React build: ${reactBuild}. Each sample opens a page (a React root with a fresh client and QueryClient) and starts two tasks one after the other, timing each from the call of start (or the naive fetch) to the layout effect of the first commit that shows a progress percent; the task reports its first progress as soon as it runs. On a fresh page the client has not yet heard the service offer resumable streams, so start posts the stream; on the second start it has, so start is the short start (202) and the page's one multiplexed read follows the task. The hook renders at most once per animation frame (a 60 Hz requestAnimationFrame held ticking), the naive consumer on every setState: the goal allows the hook one frame more. The consumers alternate which goes first; one uncounted page of each warms up.`,
      ...goals.map(goalLine),
    ],
    goals,
  };
}
