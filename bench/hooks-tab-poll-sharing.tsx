/**
 * Get Result requests made by N = 1, 2 and 4 "tabs" watching one task over the same window (the
 * first 2.5 s from the first tab's mount, while the task runs), against the reference service
 * in-process. Each tab is what a browser tab has (docs/protocol.md, "The hooks"): a React root of its own, a client,
 * a QueryClient and a journal object, the journals over one shared storage and so one
 * BroadcastChannel (Node's), and each tab a LockManager of one in-memory Web Locks space (Node has no
 * `navigator.locks`; test/support/in-memory-web-locks.ts stands in for the browser's). Tabs mount
 * 100 ms apart. Twice, as bench/hooks-poll-sharing.tsx: with
 * the polling floor governing (the service's `Retry-After` removed by the transport) and as served.
 * For comparison, not against a goal: one tab without a journal (no sharing), and
 * the largest N with `sharePolling: false` (each tab on its own schedule).
 */
import { frames } from './hooks-dom.js';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useLayoutEffect, type ReactNode } from 'react';
import { createTaskClient } from '../src/client/index.js';
import type { PollingPolicyOptions } from '../src/state/polling-policy.js';
import type { TaskJournal } from '../src/state/task-journal.js';
import { TaskwireProvider, useTaskResult } from '../src/react/index.js';
import {
  createReferenceService,
  DEMO_CLIENT_TOKEN,
  DEMO_USER_TOKEN,
} from '../src/reference/index.js';
import { scriptTask } from '../src/testing/index.js';
import {
  equalCountsGoal,
  goalLine,
  verdict,
  type BenchGoal,
  type BenchReport,
} from './bench-report.js';
import { mount, sleep, until } from './hooks-kit.js';
import { createInMemoryWebLocks } from '../test/support/in-memory-web-locks.js';
import { tabJournal } from '../test/support/journal-page.js';

const TAB_COUNTS = [1, 2, 4] as const;
const MOUNT_GAP_MS = 100;
const TIME_SCALE = 0.1;
/** The task's nominal length: about 3.5 s at the time scale above, longer than the window. */
const TASK_SECONDS = 35;
/**
 * Progress every nominal second with no time left announced, so the service's `Retry-After` is its
 * least, 1 s, and the "as served" variant polls about once a second.
 */
const watchedTask = scriptTask('watched', [
  ...Array.from({ length: TASK_SECONDS }, (_, second) => [
    { progress: [(second / TASK_SECONDS) * 100, 0] as [number, number] },
    { wait: 1000 },
  ]).flat(),
  { complete: { seconds: TASK_SECONDS } },
]);
/** The window every N is counted over, from the first mount: after the last mount, before the end. */
const WINDOW_MS = 2500;
/**
 * A fixed interval (floor and ceiling alike, whatever the task's time left): coarser than
 * bench/hooks-poll-sharing.tsx's 50 ms floor, since each tab here is a React root and a client of
 * its own, and on a busy machine their timers drift apart a little at each poll; at 200 ms the
 * drift stays well under one poll per window.
 */
const POLLING: PollingPolicyOptions = { minIntervalMs: 200, maxIntervalMs: 200 };
/**
 * As served, the service's Retry-After (1 s) sets the pace within the policy's default ceiling
 * (10 s): a ceiling below the service's hint would have the other tabs read for themselves, since
 * no tab waits for another longer than its ceiling (docs/protocol.md, "The hooks").
 */
const POLLING_AS_SERVED: PollingPolicyOptions = { minIntervalMs: 200 };

type Variant = 'floor governs (Retry-After removed)' | 'as served (Retry-After ≥ 1 s)';
/** How the tabs of a run are set up: sharing (the default), no journal, or a journal without it. */
type Setting = 'shared' | 'no journal' | 'sharePolling: false';

/** A Web Storage stand-in every tab's journal shares, as tabs share `localStorage`. */
function sharedStorage() {
  const values = new Map<string, string>();
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
    removeItem: (key: string) => void values.delete(key),
  };
}

function Watcher(props: {
  id: string;
  polling: PollingPolicyOptions;
  onStatus: (status: string | undefined) => void;
}) {
  const { id, polling, onStatus } = props;
  const status = useTaskResult('watched', id, { polling }).data?.status;
  useLayoutEffect(() => onStatus(status), [onStatus, status]);
  return <p>{status ?? 'loading'}</p>;
}

interface Count {
  variant: Variant;
  setting: Setting;
  tabs: number;
  /** Get Result requests of all tabs in the first `WINDOW_MS` from the first mount. */
  inWindow: number;
  /** The same, per tab. */
  perTab: number[];
  /** Whether every tab was mounted, and the task still running, when the window closed. */
  windowValid: boolean;
  /** Get Result requests of all tabs after every tab shows COMPLETED (a tail of 300 ms). */
  afterCompleted: number;
}

let runs = 0;

async function countRequests(variant: Variant, setting: Setting, tabs: number): Promise<Count> {
  runs += 1;
  // A scope of its own per run: the channel is per scope, so runs never hear each other.
  const scope = `bench-tabs-${runs}`;
  const service = createReferenceService({ tasks: [watchedTask], timeScale: TIME_SCALE });
  const storage = sharedStorage();
  const locks = createInMemoryWebLocks();
  const requests: Array<{ tab: number; at: number }> = [];
  const statuses = new Map<number, string | undefined>();
  const views: Array<{ unmount: () => void }> = [];
  const queryClients: QueryClient[] = [];

  const openTab = (tab: number, id: string) => {
    const client = createTaskClient({
      baseUrl: 'http://taskwire.bench',
      userToken: DEMO_USER_TOKEN,
      clientToken: DEMO_CLIENT_TOKEN,
      scope,
      fetch: async (request) => {
        if (request.method === 'GET') requests.push({ tab, at: performance.now() });
        const response = await service.fetch(request);
        if (variant === 'as served (Retry-After ≥ 1 s)' || !response.headers.has('retry-after'))
          return response;
        const headers = new Headers(response.headers);
        headers.delete('retry-after');
        return new Response(response.body, { status: response.status, headers });
      },
    });
    const queryClient = new QueryClient();
    queryClients.push(queryClient);
    const journal: TaskJournal | undefined =
      setting === 'no journal'
        ? undefined
        : tabJournal(locks.tab(`tab-${String(tab)}`), {
            storage,
            sharePolling: setting === 'shared',
          });
    const Providers = ({ children }: { children?: ReactNode }) => (
      <QueryClientProvider client={queryClient}>
        <TaskwireProvider client={client} journal={journal}>
          {children}
        </TaskwireProvider>
      </QueryClientProvider>
    );
    views.push(
      mount(
        <Providers>
          <Watcher
            id={id}
            polling={variant === 'as served (Retry-After ≥ 1 s)' ? POLLING_AS_SERVED : POLLING}
            onStatus={(status) => {
              statuses.set(tab, status);
            }}
          />
        </Providers>,
      ),
    );
  };

  const release = frames.hold();
  try {
    const submitter = createTaskClient({
      baseUrl: 'http://taskwire.bench',
      userToken: DEMO_USER_TOKEN,
      clientToken: DEMO_CLIENT_TOKEN,
      fetch: (request) => service.fetch(request),
    });
    const submittedAt = performance.now();
    const { id } = await submitter.submit('watched', {});
    const earliestEnd = submittedAt + TASK_SECONDS * 1000 * TIME_SCALE;
    const firstMount = performance.now();
    let lastMount = firstMount;
    openTab(0, id);
    for (let tab = 1; tab < tabs; tab += 1) {
      await sleep(MOUNT_GAP_MS);
      openTab(tab, id);
      lastMount = performance.now();
    }
    await until(
      () =>
        statuses.size === tabs && [...statuses.values()].every((status) => status === 'COMPLETED'),
      `${tabs} tabs to show COMPLETED`,
      60_000,
    );
    const completedAt = performance.now();
    await sleep(300);
    const inWindow = requests.filter(
      (request) => request.at >= firstMount && request.at < firstMount + WINDOW_MS,
    );
    return {
      variant,
      setting,
      tabs,
      inWindow: inWindow.length,
      perTab: Array.from(
        { length: tabs },
        (_, tab) => inWindow.filter((request) => request.tab === tab).length,
      ),
      windowValid:
        lastMount < firstMount + WINDOW_MS &&
        firstMount + WINDOW_MS < Math.min(completedAt, earliestEnd),
      afterCompleted: requests.filter((request) => request.at >= completedAt).length,
    };
  } finally {
    for (const view of views) view.unmount();
    for (const queryClient of queryClients) queryClient.clear();
    release();
    await service.close();
  }
}

/** Runs both variants for every tab count, and the comparisons, and reports them with the goal. */
export default async function run(): Promise<BenchReport> {
  const variants: Variant[] = [
    'floor governs (Retry-After removed)',
    'as served (Retry-After ≥ 1 s)',
  ];
  const most = TAB_COUNTS[TAB_COUNTS.length - 1] as number;
  // A warm-up run, not counted: the first run of a process is slow (code not yet compiled), and
  // would be the baseline's.
  await countRequests(variants[0] as Variant, 'shared', most);
  const counts: Count[] = [];
  for (const variant of variants) {
    for (const tabs of TAB_COUNTS) counts.push(await countRequests(variant, 'shared', tabs));
    counts.push(await countRequests(variant, 'no journal', 1));
    counts.push(await countRequests(variant, 'sharePolling: false', most));
  }
  const baselineOf = (variant: Variant) =>
    counts.find(
      (count) => count.variant === variant && count.setting === 'shared' && count.tabs === 1,
    ) as Count;
  const rows = counts.map((count) => ({
    variant: count.variant,
    tabs: count.tabs,
    setting: count.setting,
    [`requests in the first ${WINDOW_MS} ms`]: count.windowValid
      ? count.inWindow
      : `${count.inWindow} (window invalid)`,
    'per tab': count.perTab.join(' + '),
    'ratio to 1 tab': (count.inWindow / Math.max(1, baselineOf(count.variant).inWindow)).toFixed(2),
    'after COMPLETED': count.afterCompleted,
  }));
  const benchmark = 'one poll across tabs';
  const goals: BenchGoal[] = [];
  for (const variant of variants) {
    const single = baselineOf(variant);
    const shared = counts.filter(
      (count) => count.variant === variant && count.setting === 'shared' && count !== single,
    );
    goals.push(
      equalCountsGoal({
        benchmark,
        measure: `Get Result requests in the same ${WINDOW_MS / 1000} s window, ${shared.map((count) => count.tabs).join(' and ')} tabs on one task, ${variant}`,
        baselineName: '1 tab',
        single,
        others: shared,
      }),
    );
  }
  const after = counts.reduce((sum, count) => sum + count.afterCompleted, 0);
  goals.push({
    benchmark,
    measure: `requests after every tab shows COMPLETED (300 ms), all ${counts.length} runs`,
    figure: `${after}`,
    baseline: '—',
    ratio: '—',
    goal: '0',
    verdict: verdict(after === 0),
    values: { figure: after },
  });
  const notes = [
    `Counted: GET …/result requests of every tab in the first ${WINDOW_MS} ms from the first tab's mount (the same window for every N: after the last mount, before the task can end). Tabs mount ${MOUNT_GAP_MS} ms apart, each a React root with its own client, QueryClient and journal object over one shared storage (so one BroadcastChannel, per client scope) and one Web Locks space (a lock per task names the polling tab). The task (a script of taskwire/testing) reports progress every ${1000 * TIME_SCALE} ms with no time left announced and ends after about ${(TASK_SECONDS * TIME_SCALE).toFixed(1)} s. Polling: every ${POLLING.minIntervalMs} ms (floor and ceiling), or as served the service's Retry-After within the default 10 s ceiling; one uncounted run warms up first. "no journal" (1 tab) and "sharePolling: false" (${most} tabs) are shown for comparison: the first shares nothing, the second is what the tabs would cost without sharing.`,
    ...goals.map(goalLine),
  ];
  return {
    title: `One poll across tabs: N = ${TAB_COUNTS.join(', ')} tabs on one task, mounted ${MOUNT_GAP_MS} ms apart, reference service in-process`,
    rows,
    notes,
    goals,
  };
}
