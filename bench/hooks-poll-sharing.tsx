/**
 * Get Result requests made by N = 1, 5 and 20 `useTaskResult` watchers of one task, mounted 100 ms
 * apart, over the same window (the first 2.5 s from the first mount, while the task runs), against
 * the reference service in-process. Twice: with the polling floor governing (the bench's transport
 * removes the service's `Retry-After` hint, so the floor of 50 ms sets the pace), and as served (the
 * hint, at least 1 s, honoured).
 */
import { frames } from './hooks-dom.js';
import { useLayoutEffect } from 'react';
import * as z from 'zod/mini';
import type { PollingPolicyOptions } from '../src/state/polling-policy.js';
import { useTaskResult } from '../src/react/index.js';
import { defineTask } from '../src/reference/index.js';
import {
  equalCountsGoal,
  goalLine,
  verdict,
  type BenchGoal,
  type BenchReport,
} from './bench-report.js';
import { createServiceSetup, mount, sleep, until } from './hooks-kit.js';

const WATCHER_COUNTS = [1, 5, 20] as const;
const MOUNT_GAP_MS = 100;
const TIME_SCALE = 0.1;
/**
 * The task's nominal length; at the time scale above it runs about 2.7 s, away from a whole second
 * so that the 1 s polls of the "as served" variant do not race its end.
 */
const TASK_SECONDS = 27;
/**
 * The window every N is counted over, from the first mount: after the last of 20 mounts (1.9 s in)
 * and before the task can end (2.7 s in at the earliest), and away from a whole second so the 1 s
 * polls of the "as served" variant do not race its end. The run until COMPLETED is longer and varies
 * with timer delays on a busy machine, so its counts are listed but not compared.
 */
const WINDOW_MS = 2500;
const POLLING: PollingPolicyOptions = { minIntervalMs: 50 };
/** A gap between two polls shorter than this is off the schedule (timers may fire a little early). */
const SHORT_GAP_MS = 45;
/** How long the bench keeps counting after every watcher shows COMPLETED, and after unmount. */
const TAIL_MS = 300;

/** Reports progress every nominal second and ends after `seconds`, with no time-left estimate. */
const watchedTask = defineTask({
  name: 'watched',
  params: z.object({ seconds: z.number() }),
  run: async (context, { seconds }) => {
    for (let second = 0; second < seconds; second += 1) {
      context.progress((second / seconds) * 100, 0);
      await context.sleep(1000);
    }
    return { seconds };
  },
});

type Variant = 'floor governs (Retry-After removed)' | 'as served (Retry-After ≥ 1 s)';

function Watcher(props: {
  index: number;
  id: string;
  onStatus: (index: number, status: string | undefined) => void;
}) {
  const { index, id, onStatus } = props;
  const result = useTaskResult('watched', id, { polling: POLLING });
  const status = result.data?.status;
  useLayoutEffect(() => onStatus(index, status), [onStatus, index, status]);
  return <li>{status ?? 'loading'}</li>;
}

interface Count {
  variant: Variant;
  watchers: number;
  /** Get Result requests in the first `WINDOW_MS` from the first mount. */
  inWindow: number;
  /** Whether every watcher was mounted, and the task still running, when the window closed. */
  windowValid: boolean;
  /** Get Result requests from the first mount until every watcher shows COMPLETED. */
  untilCompleted: number;
  /** Get Result requests after that, while still mounted. */
  afterCompleted: number;
  /** Get Result requests after unmount. */
  afterUnmount: number;
  untilCompletedMs: number;
  /** The shortest gap between two Get Result requests in the window, in milliseconds. */
  minGapMs: number;
  /** Gaps well under the polling floor (timer granularity aside): requests off the schedule. */
  shortGaps: number;
}

async function countRequests(variant: Variant, watchers: number): Promise<Count> {
  const setup = createServiceSetup(
    { tasks: [watchedTask], timeScale: TIME_SCALE },
    async (request, service) => {
      const response = await service(request);
      if (variant === 'as served (Retry-After ≥ 1 s)' || !response.headers.has('retry-after'))
        return response;
      const headers = new Headers(response.headers);
      headers.delete('retry-after');
      return new Response(response.body, { status: response.status, headers });
    },
  );
  const gets = (from: number, to = Infinity) =>
    setup.requests.filter(
      (request) => request.line.startsWith('GET ') && request.at >= from && request.at < to,
    ).length;
  const statuses = new Map<number, string | undefined>();
  const onStatus = (index: number, status: string | undefined) => {
    statuses.set(index, status);
  };
  const release = frames.hold();
  const submittedAt = performance.now();
  const { id } = await setup.client.submit('watched', { seconds: TASK_SECONDS });
  // The task cannot end sooner than this (its sleeps never end early).
  const earliestEnd = submittedAt + TASK_SECONDS * 1000 * TIME_SCALE;
  const render = (count: number) => (
    <setup.Providers>
      <ul>
        {Array.from({ length: count }, (_, index) => (
          <Watcher key={index} index={index} id={id} onStatus={onStatus} />
        ))}
      </ul>
    </setup.Providers>
  );
  const firstMount = performance.now();
  let lastMount = firstMount;
  const view = mount(render(1));
  try {
    for (let count = 2; count <= watchers; count += 1) {
      await sleep(MOUNT_GAP_MS);
      view.root.render(render(count));
      lastMount = performance.now();
    }
    await until(
      () =>
        statuses.size === watchers &&
        [...statuses.values()].every((status) => status === 'COMPLETED'),
      `${watchers} watchers to show COMPLETED`,
      60_000,
    );
    const completedAt = performance.now();
    const times = setup.requests
      .filter((request) => request.line.startsWith('GET ') && request.at >= firstMount)
      .map((request) => request.at);
    const gaps = times.slice(1).map((at, index) => at - (times[index] as number));
    await sleep(TAIL_MS);
    view.unmount();
    const unmountedAt = performance.now();
    await sleep(TAIL_MS);
    return {
      variant,
      watchers,
      inWindow: gets(firstMount, firstMount + WINDOW_MS),
      windowValid:
        lastMount - firstMount < WINDOW_MS &&
        firstMount + WINDOW_MS < Math.min(completedAt, earliestEnd),
      untilCompleted: gets(firstMount, completedAt),
      afterCompleted: gets(completedAt, unmountedAt),
      afterUnmount: gets(unmountedAt),
      untilCompletedMs: completedAt - firstMount,
      minGapMs: Math.min(...gaps),
      shortGaps: gaps.filter((gap) => gap < SHORT_GAP_MS).length,
    };
  } finally {
    view.unmount();
    release();
    await setup.close();
  }
}

/** Runs both variants for every watcher count and reports them with the goal. */
export default async function run(): Promise<BenchReport> {
  const variants: Variant[] = [
    'floor governs (Retry-After removed)',
    'as served (Retry-After ≥ 1 s)',
  ];
  const counts: Count[] = [];
  for (const variant of variants) {
    for (const watchers of WATCHER_COUNTS) counts.push(await countRequests(variant, watchers));
  }
  const rows = counts.map((count) => {
    const single = counts.find(
      (other) => other.variant === count.variant && other.watchers === 1,
    ) as Count;
    return {
      variant: count.variant,
      watchers: count.watchers,
      [`requests in the first ${WINDOW_MS} ms`]: count.windowValid
        ? count.inWindow
        : `${count.inWindow} (window invalid)`,
      'ratio to N = 1': (count.inWindow / Math.max(1, single.inWindow)).toFixed(2),
      'requests until COMPLETED': count.untilCompleted,
      'until COMPLETED (ms)': Math.round(count.untilCompletedMs),
      'after COMPLETED': count.afterCompleted,
      'after unmount': count.afterUnmount,
      'shortest gap (ms)': count.minGapMs.toFixed(1),
      [`gaps < ${SHORT_GAP_MS} ms`]: count.shortGaps,
    };
  });
  const benchmark = 'useTaskResult request sharing';
  const goals: BenchGoal[] = [];
  for (const variant of variants) {
    const ofVariant = counts.filter((count) => count.variant === variant);
    const single = ofVariant.find((count) => count.watchers === 1) as Count;
    const others = ofVariant.filter((count) => count !== single);
    goals.push(
      equalCountsGoal({
        benchmark,
        measure: `Get Result requests in the same ${WINDOW_MS / 1000} s window, N = ${others.map((count) => count.watchers).join(' and ')} watchers, ${variant}`,
        baselineName: 'N = 1',
        single,
        others,
      }),
    );
  }
  const after = counts.reduce((sum, count) => sum + count.afterCompleted + count.afterUnmount, 0);
  const shortGaps = counts.reduce((sum, count) => sum + count.shortGaps, 0);
  goals.push(
    {
      benchmark,
      measure: `requests after every watcher shows COMPLETED, and after unmount (${TAIL_MS} ms each), all ${counts.length} runs`,
      figure: `${after}`,
      baseline: '—',
      ratio: '—',
      goal: '0',
      verdict: verdict(after === 0),
      values: { figure: after },
    },
    {
      benchmark,
      measure: `polls closer than ${SHORT_GAP_MS} ms to the one before (a mount fetching off the schedule), all ${counts.length} runs`,
      figure: `${shortGaps}`,
      baseline: '—',
      ratio: '—',
      goal: '0',
      verdict: verdict(shortGaps === 0),
      values: { figure: shortGaps },
    },
  );
  const notes = [
    `Counted: GET …/result requests in the first ${WINDOW_MS} ms from the first watcher's mount (the same window for every N: after the last mount, before the task can end), and, listed but not compared, until every watcher shows COMPLETED (that run's length varies with timer delays); then ${TAIL_MS} ms more while mounted, then ${TAIL_MS} ms after unmount. Watchers mount ${MOUNT_GAP_MS} ms apart; the task (submitted just before the first mount) reports progress every ${1000 * TIME_SCALE} ms with no time-left estimate and ends after about ${(TASK_SECONDS * TIME_SCALE).toFixed(1)} s. Polling floor: ${POLLING.minIntervalMs} ms. The submit is not counted.`,
    ...goals.map(goalLine),
  ];
  return {
    title: `useTaskResult request sharing: N = ${WATCHER_COUNTS.join(', ')} watchers of one task, mounted ${MOUNT_GAP_MS} ms apart, reference service in-process`,
    rows,
    notes,
    goals,
  };
}
