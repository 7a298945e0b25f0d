/**
 * Time to first event: from `useTaskStream().start` to the commit that first shows the task's
 * progress, against a naive consumer that runs `fetch` → `TextDecoderStream` →
 * `EventSourceParserStream` and calls `setState` on the first progress, on the same reference
 * service (natively resumable) on a loopback socket. Measured on a fresh page (the client has not
 * yet heard that the service offers resumable streams, so `start` posts the stream), on a page
 * that has (`start` is the short start, and the page's one read, closed since its last task ended,
 * opens for the task), and on that page while another task streams (the page's open read is
 * handed over to one that follows both).
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

/** Reports progress every 16 ms, 12 times: the task that streams beside the one timed. */
const busyTask = defineTask({
  name: 'busy',
  params: z.object({ run: z.number() }),
  run: async (context, { run }) => {
    for (let tick = 1; tick <= 12; tick += 1) {
      context.progress(tick * 8, 1);
      await context.sleep(16);
    }
    return { run };
  },
});

const PAGES = ['fresh page', 'page that has streamed', 'page that streams another task'] as const;
type Page = (typeof PAGES)[number];

/** What each page's start goes through, for the goals' lines. */
const PAGE_MEASURES: Record<Page, string> = {
  'fresh page': "a page's first start (the stream POST)",
  'page that has streamed': 'a later start on the page (the short start and the page’s read)',
  'page that streams another task':
    'a later start while another task streams (the short start and the page’s read handed over)',
};

/** When the first progress was committed, and whether the task was seen to complete. */
interface Watch {
  firstProgressAt: number | undefined;
  completed: boolean;
}

/** Told after each commit what it shows. */
type OnShown = (shown: { percent: number | undefined; completed: boolean }) => void;

function HookConsumer(props: {
  task: 'quick' | 'busy';
  onShown: OnShown;
  onReady: (start: (run: number) => void) => void;
}) {
  const { task, onShown, onReady } = props;
  const stream = useTaskStream(task);
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
  task: 'quick' | 'busy';
  url: string;
  onShown: OnShown;
  onReady: (start: (run: number) => void) => void;
}) {
  const { task, url, onShown, onReady } = props;
  const [percent, setPercent] = useState<number | undefined>(undefined);
  const [completed, setCompleted] = useState(false);
  useLayoutEffect(() => onShown({ percent, completed }));
  useEffect(() => {
    onReady((run) => {
      setPercent(undefined);
      setCompleted(false);
      void fetch(`${url}/workflows/${task}/stream`, {
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
  }, [task, url, onReady]);
  return <p>{percent ?? 0}</p>;
}

type Consumer = 'useTaskStream' | 'naive fetch → EventSourceParserStream → setState';

/** A consumer on a page: what it last showed, and its start once it mounted. */
interface Follower {
  watch: Watch;
  onShown: OnShown;
  onReady: (start: (run: number) => void) => void;
  start: ((run: number) => void) | undefined;
  /** When the run being timed was started: commits before it count for nothing. */
  began: number;
}

function follower(): Follower {
  const follower: Follower = {
    // One object for the page's life, reset before each start: the consumers hold it.
    watch: { firstProgressAt: undefined, completed: false },
    onShown: ({ percent, completed }) => {
      const now = performance.now();
      // A commit that still shows the run before counts for nothing.
      if (now < follower.began) return;
      // The first commit that shows the task's progress, even when it is already the completed one.
      if (percent !== undefined) follower.watch.firstProgressAt ??= now;
      if (completed) follower.watch.completed = true;
    },
    onReady: (next) => {
      follower.start = next;
    },
    start: undefined,
    began: Number.POSITIVE_INFINITY,
  };
  return follower;
}

/** Starts `run` on `follower` and waits for its first progress: the time it took. */
async function startAndTime(follower: Follower, run: number, what: string): Promise<number> {
  follower.watch.firstProgressAt = undefined;
  follower.watch.completed = false;
  follower.began = performance.now();
  follower.start?.(run);
  await until(
    () => follower.watch.firstProgressAt !== undefined,
    `${what}'s first progress`,
    10_000,
  );
  return (follower.watch.firstProgressAt ?? Number.NaN) - follower.began;
}

/**
 * Opens a page with `consumer` and times three starts one after the other: the page's first, a
 * second once the first completed, and a third while another task streams on the page.
 */
async function timeStarts(
  url: string,
  consumer: Consumer,
  firstRun: number,
): Promise<Record<Page, number>> {
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
  const timed = follower();
  const beside = follower();
  const release = frames.hold();
  const consumerOf = (task: 'quick' | 'busy', { onShown, onReady }: Follower) =>
    consumer === 'useTaskStream' ? (
      <HookConsumer task={task} onShown={onShown} onReady={onReady} />
    ) : (
      <NaiveConsumer task={task} url={url} onShown={onShown} onReady={onReady} />
    );
  const view = mount(
    <Providers>
      {consumerOf('quick', timed)}
      {consumerOf('busy', beside)}
    </Providers>,
  );
  const completed = (what: Follower) =>
    until(() => what.watch.completed, `${consumer}'s task to complete`, 10_000);
  try {
    await until(
      () => timed.start !== undefined && beside.start !== undefined,
      'the consumers to mount',
    );
    const fresh = await startAndTime(timed, firstRun, consumer);
    await completed(timed);
    const later = await startAndTime(timed, firstRun + 1, consumer);
    await completed(timed);
    // The other task streams (its progress shown) when the third start is made.
    await startAndTime(beside, firstRun + 2, consumer);
    const besideAnother = await startAndTime(timed, firstRun + 3, consumer);
    await completed(timed);
    await completed(beside);
    return {
      'fresh page': fresh,
      'page that has streamed': later,
      'page that streams another task': besideAnother,
    };
  } finally {
    view.unmount();
    release();
    queryClient.clear();
  }
}

/** Times both consumers on the three pages and reports them with the goals. */
export default async function run(): Promise<BenchReport> {
  const service = await startLoopbackService({ tasks: [quickTask, busyTask], timeScale: 1 });
  const results = new Map<string, number[]>();
  const consumers: Consumer[] = [
    'useTaskStream',
    'naive fetch → EventSourceParserStream → setState',
  ];
  let runId = 0;
  try {
    // Warm-up: one page of each, not counted.
    for (const consumer of consumers) await timeStarts(service.url, consumer, (runId += 4));
    for (let sample = 0; sample < SAMPLES; sample += 1) {
      for (const consumer of sample % 2 === 0 ? consumers : [...consumers].reverse()) {
        const times = await timeStarts(service.url, consumer, (runId += 4));
        for (const page of PAGES) {
          const key = `${consumer}|${page}`;
          results.set(key, [...(results.get(key) ?? []), times[page]]);
        }
      }
    }
  } finally {
    await service.close();
  }
  const timesOf = (consumer: Consumer, page: Page) => results.get(`${consumer}|${page}`) ?? [];
  const rows = consumers.flatMap((consumer) =>
    PAGES.map((page) => {
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
  const goals: BenchGoal[] = PAGES.map((page) => {
    const ours = percentile(timesOf('useTaskStream', page), 0.5);
    const naive = percentile(timesOf(consumers[1] as Consumer, page), 0.5);
    const gap = ours - naive;
    return {
      benchmark,
      measure: `start → first progress committed, median of ${SAMPLES}, ${PAGE_MEASURES[page]}`,
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
      `React build: ${reactBuild}. Each sample opens a page (a React root with a fresh client and QueryClient) and starts three tasks one after the other, timing each from the call of start (or the naive fetch) to the layout effect of the first commit that shows a progress percent; the task reports its first progress as soon as it runs. On a fresh page the client has not yet heard the service offer resumable streams, so start posts the stream; on the second start it has, so start is the short start (202) and the page's one multiplexed read, closed since the first task ended, opens for the task; the third start comes while another task of the page streams (a progress every 16 ms, shown), so the page's open read is handed over to one that follows both (the naive consumer has a stream of its own for each). The hook renders at most once per animation frame (a 60 Hz requestAnimationFrame held ticking), the naive consumer on every setState: the goal allows the hook one frame more. The consumers alternate which goes first; one uncounted page of each warms up.`,
      ...goals.map(goalLine),
    ],
    goals,
  };
}
