/**
 * Resume after a reload: from the mount of a reloaded page (`useTaskStream` with a `resumeKey`, the
 * journal over the same storage) to the first commit showing a resumed event, through the proxy
 * with a `memoryEventLog` and with a `redisEventLog` on a real `redis-server`, in front of the
 * reference service as a 0.3 service on loopback. The baseline, on the same proxy: a page whose
 * component reads the task's events itself (fetch of `GET …/events` → `EventSourceParserStream` →
 * `setState`).
 */
import { frames } from './hooks-dom.js';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useState, type ReactNode } from 'react';
import * as z from 'zod/mini';
import { createTaskClient } from '../src/client/index.js';
import { memoryEventLog } from '../src/server/index.js';
import { redisEventLog } from '../src/server/redis/index.js';
import { TaskwireProvider, useTaskStream } from '../src/react/index.js';
import { defineTask, DEMO_USER_TOKEN } from '../src/reference/index.js';
import { createInMemoryWebLocks } from '../test/support/in-memory-web-locks.js';
import { tabJournal } from '../test/support/journal-page.js';
import { mapStorage } from '../test/support/map-storage.js';
import { startRedisServer } from '../test/support/redis-server.js';
import { goalLine, verdict, type BenchGoal, type BenchReport } from './bench-report.js';
import { mount, reactBuild, until } from './hooks-kit.js';
import {
  demoHeaders,
  formatMs,
  percentile,
  readServerSentEvents,
  startLoopbackProxy,
  startLoopbackService,
} from './resumable-kit.js';

const RELOADS = 40;
const P50_GOAL_MS = 100;
const P99_GOAL_MS = 500;

/** Lets the running task end. */
let release: (() => void) | undefined;

/** Reports progress every 20 ms until the bench lets it end. */
const longTask = defineTask({
  name: 'long',
  params: z.object({}),
  run: async (context) => {
    let ended = false;
    release = () => {
      ended = true;
    };
    for (let tick = 1; !ended; tick += 1) {
      context.progress(Math.min(99, tick / 10), 1);
      await context.sleep(20);
    }
    return { done: true };
  },
});

/** Told after each commit whether it shows an event of the task. */
type OnShown = (shown: boolean) => void;

function HookPage(props: { onShown: OnShown; onReady?: (start: () => void) => void }) {
  const { onShown, onReady } = props;
  const stream = useTaskStream('long', { resumeKey: 'long' });
  const shown = stream.progress?.percent !== undefined;
  useLayoutEffect(() => {
    onShown(shown);
  });
  const { start } = stream;
  useEffect(() => {
    onReady?.(() => start({}));
  }, [onReady, start]);
  return <p>{stream.progress?.percent ?? 0}</p>;
}

function NaivePage(props: { url: string; taskId: string; onShown: OnShown }) {
  const { url, taskId, onShown } = props;
  const [percent, setPercent] = useState<number | undefined>(undefined);
  useLayoutEffect(() => {
    onShown(percent !== undefined);
  });
  useEffect(() => {
    const abort = new AbortController();
    void fetch(`${url}/workflows/long/${taskId}/events`, {
      headers: demoHeaders('proxy'),
      signal: abort.signal,
    })
      .then((response) =>
        readServerSentEvents(response, (message) => {
          if (message.type === 'task.progress') setPercent(message.percent as number);
          return false;
        }),
      )
      .catch(() => undefined);
    return () => abort.abort();
  }, [url, taskId]);
  return <p>{percent ?? 0}</p>;
}

type Store = 'memoryEventLog' | 'redisEventLog';
type Consumer = 'useTaskStream (resumeKey)' | 'naive GET …/events → setState';

/** Starts the task on a first page, then reloads `RELOADS` times; each reload's time to its first event. */
async function timeReloads(store: Store, redisUrl: string) {
  const upstream = await startLoopbackService({ tasks: [longTask], timeScale: 1, events: false });
  const log = store === 'memoryEventLog' ? memoryEventLog() : redisEventLog({ url: redisUrl });
  const proxy = await startLoopbackProxy(upstream.url, ['long'], log);
  const storage = mapStorage();
  const locks = createInMemoryWebLocks();
  let pages = 0;
  const openPage = (
    page: (Providers: (props: { children?: ReactNode }) => ReactNode) => ReactNode,
  ) => {
    pages += 1;
    const client = createTaskClient({
      baseUrl: proxy.url,
      userToken: DEMO_USER_TOKEN,
      scope: `bench-resume-${store}`,
    });
    const queryClient = new QueryClient();
    const journal = tabJournal(locks.tab(`page-${pages}`), { storage });
    const Providers = ({ children }: { children?: ReactNode }) => (
      <QueryClientProvider client={queryClient}>
        <TaskwireProvider client={client} journal={journal}>
          {children}
        </TaskwireProvider>
      </QueryClientProvider>
    );
    const view = mount(page(Providers));
    return () => {
      view.unmount();
      journal.close();
      queryClient.clear();
      locks.closeTab(`page-${pages}`);
    };
  };
  const times = new Map<Consumer, number[]>([
    ['useTaskStream (resumeKey)', []],
    ['naive GET …/events → setState', []],
  ]);
  const hold = frames.hold();
  try {
    let shown = false;
    let start: (() => void) | undefined;
    const close = openPage((Providers) => (
      <Providers>
        <HookPage onShown={(value) => (shown = value)} onReady={(next) => (start = next)} />
      </Providers>
    ));
    await until(() => start !== undefined, 'the first page to mount');
    start?.();
    await until(() => shown, 'the first page to show progress');
    close();
    const record = JSON.parse(
      [...storage.values.values()].find((value) => value.includes('"long"')) ?? '{}',
    ) as unknown;
    const taskId = /"id":"([0-9a-f-]{36})"/.exec(JSON.stringify(record))?.[1] ?? '';
    for (let reload = 0; reload < RELOADS; reload += 1) {
      for (const consumer of reload % 2 === 0 ? [...times.keys()] : [...times.keys()].reverse()) {
        let firstAt: number | undefined;
        const began = performance.now();
        const onShown: OnShown = (value) => {
          if (value) firstAt ??= performance.now();
        };
        const closePage = openPage((Providers) => (
          <Providers>
            {consumer === 'useTaskStream (resumeKey)' ? (
              <HookPage onShown={onShown} />
            ) : (
              <NaivePage url={proxy.url} taskId={taskId} onShown={onShown} />
            )}
          </Providers>
        ));
        try {
          await until(() => firstAt !== undefined, `${consumer} to show a resumed event`, 10_000);
        } finally {
          closePage();
        }
        times.get(consumer)?.push((firstAt as number) - began);
      }
    }
    return times;
  } finally {
    hold();
    release?.();
    await proxy.close();
    await upstream.close();
  }
}

/** Times both stores and reports them with the goals. */
export default async function run(): Promise<BenchReport> {
  const redis = await startRedisServer();
  const results = new Map<Store, Map<Consumer, number[]>>();
  try {
    for (const store of ['memoryEventLog', 'redisEventLog'] as const)
      results.set(store, await timeReloads(store, redis.url));
  } finally {
    await redis.stop();
  }
  const rows = [...results].flatMap(([store, times]) =>
    [...times].map(([consumer, values]) => ({
      store,
      consumer,
      reloads: values.length,
      'p50 (ms)': percentile(values, 0.5).toFixed(1),
      'p99 (ms)': percentile(values, 0.99).toFixed(1),
    })),
  );
  const benchmark = 'Resume after a reload';
  const goals: BenchGoal[] = [...results].map(([store, times]) => {
    const hook = times.get('useTaskStream (resumeKey)') ?? [];
    const naive = times.get('naive GET …/events → setState') ?? [];
    const p50 = percentile(hook, 0.5);
    const p99 = percentile(hook, 0.99);
    return {
      benchmark,
      measure: `mount of the reloaded page → first resumed event committed, proxy with ${store}, p50 and p99 of ${RELOADS}`,
      figure: `${formatMs(p50)}, ${formatMs(p99)}`,
      baseline: `naive GET …/events → setState: ${formatMs(percentile(naive, 0.5))}, ${formatMs(percentile(naive, 0.99))}`,
      ratio: `${(p50 / percentile(naive, 0.5)).toFixed(2)}× at p50`,
      goal: `p50 ≤ ${P50_GOAL_MS} ms, p99 ≤ ${P99_GOAL_MS} ms`,
      verdict: verdict(p50 <= P50_GOAL_MS && p99 <= P99_GOAL_MS),
      values: {
        figure: p50,
        baseline: percentile(naive, 0.5),
        ratio: p50 / percentile(naive, 0.5),
      },
    };
  });
  return {
    title: `Resume after a reload: useTaskStream with a resumeKey, from the reloaded page's mount to the first resumed event committed, through the proxy with memoryEventLog and with redisEventLog, ${RELOADS} reloads each`,
    rows,
    notes: [
      `React build: ${reactBuild}. The reference service runs as a 0.3 service (events: false) on loopback behind createTaskProxy on loopback; its task reports progress every 20 ms until the bench ends it. A first page starts it with useTaskStream({ resumeKey }) and a journal, and closes once it showed progress; then each reload opens a page (a new React root, client, QueryClient and journal object over the same storage, the old tab's Web Locks released) and times its mount to the layout effect of the first commit that shows progress, the task still running. The page's new client has not heard the proxy offer resumable streams. Baseline: a page that knows the task id and reads GET …/events itself (fetch → TextDecoderStream → EventSourceParserStream → setState on the first message). The consumers alternate which goes first. The goals are the issue's (Durable Streams' conformance thresholds are the same).`,
      ...goals.map(goalLine),
    ],
    goals,
  };
}
