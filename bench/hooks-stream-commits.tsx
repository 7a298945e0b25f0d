/**
 * React commits of a `useTaskStream` consumer fed 10,000 events by the reference service, (a) in
 * one burst delivered as one chunk and (b) one event per chunk, about 1 ms apart, against a naive
 * consumer that iterates `client.stream()` itself and calls `setState` per event. Commits are
 * counted with `<Profiler onRender>`; frames are the ticks of a 60 Hz `requestAnimationFrame`.
 */
import { frames } from './hooks-dom.js';
import { Profiler, useEffect, useLayoutEffect, useState } from 'react';
import * as z from 'zod/mini';
import { useTaskStream } from '../src/react/index.js';
import { defineTask } from '../src/reference/index.js';
import {
  fewerText,
  formatCount,
  goalLine,
  verdict,
  type BenchGoal,
  type BenchReport,
} from './bench-report.js';
import { createServiceSetup, mount, reactBuild, sleep, until } from './hooks-kit.js';

const EVENTS = 10_000;

/** A task that reports `count` progress events, all at once or each after a 1 ms sleep. */
const burstTask = defineTask({
  name: 'burst',
  params: z.object({ count: z.number(), spread: z.boolean() }),
  run: async (context, { count, spread }) => {
    for (let index = 1; index <= count; index += 1) {
      context.progress((index / count) * 100, 1);
      if (spread) await context.sleep(1);
    }
    return { count };
  },
});

type Delivery = 'burst' | 'chunked';
type Consumer = 'useTaskStream' | 'naive setState';

/** What a consumer shows in one commit. */
interface Shown {
  status: string;
  percent: number | undefined;
}

interface Commit extends Shown {
  at: number;
  frame: number;
}

type StreamClient = ReturnType<typeof createServiceSetup>['client'];

function HookConsumer(props: {
  onShown: (shown: Shown) => void;
  onReady: (start: (params: { count: number; spread: boolean }) => void) => void;
}) {
  const { onShown, onReady } = props;
  const stream = useTaskStream('burst');
  const shown = { status: stream.status, percent: stream.progress?.percent };
  // Runs once per commit of this component, before the Profiler's onRender of the same commit.
  useLayoutEffect(() => onShown(shown));
  const { start } = stream;
  useEffect(() => onReady(start), [onReady, start]);
  return (
    <p>
      {shown.status} {shown.percent ?? 0}
    </p>
  );
}

function NaiveConsumer(props: {
  client: StreamClient;
  spread: boolean;
  onShown: (shown: Shown) => void;
  onFinalEvent: () => void;
}) {
  const { client, spread, onShown, onFinalEvent } = props;
  const [shown, setShown] = useState<Shown>({ status: 'connecting', percent: undefined });
  useEffect(() => {
    const abort = new AbortController();
    const read = async () => {
      const stream = client.stream('burst', { count: EVENTS, spread }, { signal: abort.signal });
      for await (const event of stream) {
        if (event.type === 'task.completed') onFinalEvent();
        if (event.type === 'task.progress')
          setShown({ status: 'streaming', percent: (event as { percent: number }).percent });
        else if (event.type === 'task.completed') setShown({ status: 'completed', percent: 100 });
      }
    };
    read().catch((error: unknown) => {
      if (!abort.signal.aborted)
        setShown({ status: `error: ${String(error)}`, percent: undefined });
    });
    return () => abort.abort();
  }, [client, spread, onFinalEvent]);
  useLayoutEffect(() => onShown(shown));
  return (
    <p>
      {shown.status} {shown.percent ?? 0}
    </p>
  );
}

/**
 * Hands the service's stream body to the client either whole, as one chunk, or chunk by chunk as
 * the service wrote it, and notes when the client read the chunk that holds the final event.
 */
function deliveringAs(
  delivery: Delivery,
  arrival: { finalAt: number; finalFrame: number; chunks: number },
) {
  return async (request: Request, service: (request: Request) => Promise<Response>) => {
    const response = await service(request);
    if (!response.headers.get('content-type')?.startsWith('text/event-stream') || !response.body)
      return response;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          let chunk: Uint8Array | undefined;
          if (delivery === 'burst') {
            const parts: Uint8Array[] = [];
            for (;;) {
              const { done, value } = await reader.read();
              if (done) break;
              parts.push(value);
            }
            chunk = parts.length > 0 ? Buffer.concat(parts) : undefined;
          } else {
            const { done, value } = await reader.read();
            chunk = done ? undefined : value;
          }
          if (chunk === undefined) {
            controller.close();
            return;
          }
          arrival.chunks += 1;
          if (decoder.decode(chunk).includes('"type":"task.completed"')) {
            arrival.finalAt = performance.now();
            arrival.finalFrame = frames.current;
          }
          controller.enqueue(chunk);
        },
        cancel: (reason) => reader.cancel(reason),
      },
      // Pulled only when the client reads: `finalAt` is when the client got the chunk.
      { highWaterMark: 0 },
    );
    return new Response(body, { status: response.status, headers: response.headers });
  };
}

/**
 * The same client, but its streams note when they hand the final event to their reader (the hook):
 * a timing tap, the events themselves pass through untouched.
 */
function tappingFinalEvent(
  client: StreamClient,
  arrival: { finalHandedAt: number; finalHandedFrame: number },
): StreamClient {
  const stream: StreamClient['stream'] = (task, params, options) => {
    const inner = client.stream(task, params, options);
    return {
      get taskId() {
        return inner.taskId;
      },
      async *[Symbol.asyncIterator]() {
        for await (const event of inner) {
          if (event.type === 'task.completed') {
            arrival.finalHandedAt = performance.now();
            arrival.finalHandedFrame = frames.current;
          }
          yield event;
        }
      },
    };
  };
  return Object.assign(Object.create(client) as StreamClient, { stream });
}

interface Measurement {
  delivery: Delivery;
  consumer: Consumer;
  chunks: number;
  commits: Commit[];
  /** Commits that show at least one event of the stream (the start/connect ones excluded). */
  eventCommits: Commit[];
  /** From the client reading the chunk that holds the final event to the commit showing it. */
  latencyMs: number;
  /** From the client handing the final event over (to the hook, or the naive loop) to that commit. */
  handoverMs: number;
  /** Frames from the one in which the client read the final chunk to the one of that commit. */
  latencyFrames: number;
  /** Frames from the one in which the final event was handed over to the one of that commit. */
  handoverFrames: number;
  elapsedMs: number;
}

async function measure(delivery: Delivery, consumer: Consumer): Promise<Measurement> {
  const arrival = {
    finalAt: Number.NaN,
    finalFrame: Number.NaN,
    chunks: 0,
    finalHandedAt: Number.NaN,
    finalHandedFrame: Number.NaN,
  };
  const setup = createServiceSetup(
    { tasks: [burstTask], timeScale: 1 },
    deliveringAs(delivery, arrival),
  );
  const commits: Commit[] = [];
  let latest: Shown = { status: 'unmounted', percent: undefined };
  const onShown = (shown: Shown) => {
    latest = shown;
  };
  let start: ((params: { count: number; spread: boolean }) => void) | undefined;
  const onReady = (next: typeof start) => {
    start = next;
  };
  if (consumer === 'useTaskStream') setup.client = tappingFinalEvent(setup.client, arrival);
  const release = frames.hold();
  const began = performance.now();
  const view = mount(
    <setup.Providers>
      <Profiler
        id="consumer"
        onRender={() => commits.push({ ...latest, at: performance.now(), frame: frames.current })}
      >
        {consumer === 'useTaskStream' ? (
          <HookConsumer onShown={onShown} onReady={onReady} />
        ) : (
          <NaiveConsumer
            client={setup.client}
            spread={delivery === 'chunked'}
            onShown={onShown}
            onFinalEvent={() => {
              arrival.finalHandedAt = performance.now();
              arrival.finalHandedFrame = frames.current;
            }}
          />
        )}
      </Profiler>
    </setup.Providers>,
  );
  try {
    if (consumer === 'useTaskStream') {
      await until(() => start !== undefined, 'the consumer to mount');
      start?.({ count: EVENTS, spread: delivery === 'chunked' });
    }
    await until(
      () =>
        commits.at(-1)?.status === 'completed' ||
        commits.at(-1)?.status.startsWith('error') === true,
      `${consumer} to show the end of the ${delivery} stream`,
      120_000,
    );
    const done = commits.at(-1) as Commit;
    if (done.status !== 'completed') throw new Error(`${consumer} ended with ${done.status}`);
    // Any commit after the final one would count against the consumer too.
    await sleep(50);
    const eventCommits = commits.filter(
      (commit) => commit.percent !== undefined || commit.status === 'completed',
    );
    return {
      delivery,
      consumer,
      chunks: arrival.chunks,
      commits,
      eventCommits,
      latencyMs: done.at - arrival.finalAt,
      handoverMs: done.at - arrival.finalHandedAt,
      latencyFrames: done.frame - arrival.finalFrame,
      handoverFrames: done.frame - arrival.finalHandedFrame,
      elapsedMs: done.at - began,
    };
  } finally {
    view.unmount();
    release();
    await setup.close();
  }
}

/** The most commits in one frame, and in how many frames there were more than one. */
function perFrame(commits: readonly Commit[]): { max: number; crowded: number; frames: number } {
  const byFrame = new Map<number, number>();
  for (const commit of commits) byFrame.set(commit.frame, (byFrame.get(commit.frame) ?? 0) + 1);
  const counts = [...byFrame.values()];
  const first = commits[0]?.frame ?? 0;
  const last = commits.at(-1)?.frame ?? 0;
  return {
    max: Math.max(0, ...counts),
    crowded: counts.filter((count) => count > 1).length,
    frames: commits.length === 0 ? 0 : last - first + 1,
  };
}

const format = (value: number, digits = 1) => value.toFixed(digits);

/** Runs the four measurements and reports them with the goals. */
export default async function run(): Promise<BenchReport> {
  const results: Measurement[] = [];
  for (const delivery of ['burst', 'chunked'] as const) {
    for (const consumer of ['useTaskStream', 'naive setState'] as const)
      results.push(await measure(delivery, consumer));
  }
  const find = (delivery: Delivery, consumer: Consumer) =>
    results.find(
      (result) => result.delivery === delivery && result.consumer === consumer,
    ) as Measurement;

  const rows = results.map((result) => {
    const frameStats = perFrame(result.eventCommits);
    return {
      delivery: result.delivery,
      consumer: result.consumer,
      'chunks read': result.chunks,
      'commits, all': result.commits.length,
      'commits showing events': result.eventCommits.length,
      'frames spanned': frameStats.frames,
      'max commits in a frame': frameStats.max,
      'frames with >1 commit': frameStats.crowded,
      'final chunk read → commit (ms, frames)': `${format(result.latencyMs)}, ${result.latencyFrames}`,
      'final event handed over → commit (ms, frames)': `${format(result.handoverMs, 2)}, ${result.handoverFrames}`,
      'run (ms)': Math.round(result.elapsedMs),
    };
  });

  const burstHook = find('burst', 'useTaskStream');
  const burstNaive = find('burst', 'naive setState');
  const chunkedHook = find('chunked', 'useTaskStream');
  const chunkedNaive = find('chunked', 'naive setState');
  const chunkedFrames = perFrame(chunkedHook.eventCommits);
  const naiveFrames = perFrame(chunkedNaive.eventCommits);
  const fewer = (naive: Measurement, hook: Measurement) =>
    naive.eventCommits.length / Math.max(1, hook.eventCommits.length);
  const frameCount = (count: number) => `${count} ${count === 1 ? 'frame' : 'frames'}`;
  const benchmark = 'useTaskStream commits';
  const events = EVENTS.toLocaleString('en');

  const goals: BenchGoal[] = [
    {
      benchmark,
      measure: `commits showing events, ${events} events in one chunk`,
      figure: `${burstHook.eventCommits.length}`,
      baseline: `naive setState: ${burstNaive.eventCommits.length}`,
      ratio: fewerText(burstHook.eventCommits.length, burstNaive.eventCommits.length),
      goal: '≤ 2 per burst',
      verdict: verdict(burstHook.eventCommits.length <= 2),
      values: {
        figure: burstHook.eventCommits.length,
        baseline: burstNaive.eventCommits.length,
        ratio: fewer(burstNaive, burstHook),
      },
    },
    {
      benchmark,
      measure: `most commits in one frame, ${events} events one per chunk (~1 ms apart)`,
      figure: `${chunkedFrames.max} (${formatCount(chunkedHook.eventCommits.length)} commits)`,
      baseline: `naive setState: ${naiveFrames.max} (${formatCount(chunkedNaive.eventCommits.length)} commits)`,
      ratio: fewerText(
        chunkedHook.eventCommits.length,
        chunkedNaive.eventCommits.length,
        'commits',
      ),
      goal: '≤ 1 per frame',
      verdict: verdict(chunkedFrames.max <= 1),
      values: {
        figure: chunkedFrames.max,
        baseline: naiveFrames.max,
        ratio: fewer(chunkedNaive, chunkedHook),
      },
    },
    {
      benchmark,
      measure:
        'last event shown: from the client reading the final chunk to the commit, one event per chunk',
      figure: `${frameCount(chunkedHook.latencyFrames)} later (${format(chunkedHook.latencyMs)} ms)`,
      baseline: `naive setState: ${frameCount(chunkedNaive.latencyFrames)} (${format(chunkedNaive.latencyMs)} ms)`,
      ratio: '—',
      goal: 'by the next frame',
      verdict: verdict(chunkedHook.latencyFrames <= 1),
      values: { figure: chunkedHook.latencyFrames, baseline: chunkedNaive.latencyFrames },
    },
    {
      benchmark,
      measure: `last event shown: from the client handing task.completed over to the commit, ${events} events in one chunk`,
      figure: `${frameCount(burstHook.handoverFrames)} later (${format(burstHook.handoverMs, 2)} ms)`,
      baseline: `naive setState: ${frameCount(burstNaive.handoverFrames)} (${format(burstNaive.handoverMs, 2)} ms)`,
      ratio: '—',
      goal: 'by the next frame',
      verdict: verdict(burstHook.handoverFrames <= 1),
      values: { figure: burstHook.handoverFrames, baseline: burstNaive.handoverFrames },
    },
  ];

  const notes = [
    `React build: ${reactBuild}. Counted: "commits showing events" are the <Profiler onRender> calls of the consumer's commits that show at least one of the stream's events (a progress percent, or completed); the mount, 'connecting' and 'streaming'-without-progress commits are excluded from it but listed under "commits, all". Frames are the ticks of a 60 Hz requestAnimationFrame installed by the bench (the hook's frame scheduler uses it), held ticking for the whole run; a commit belongs to the frame whose tick came last before it. "final chunk read → commit" runs from the moment the client read the chunk holding task.completed to the commit that shows completed (in the burst that chunk holds all ${events} events, so it includes parsing them: ${format(burstHook.latencyMs)} ms for useTaskStream, ${format(burstNaive.latencyMs)} ms naive); "final event handed over → commit" starts when the client's stream yields task.completed to its reader (for the hook, timed by a pass-through tap around client.stream). "Shown by the next frame" counts frame ticks, not milliseconds: a commit made between two ticks and one made at the next tick are painted in the same frame, and the bench's ticks (Node timers) can run late on a busy machine.`,
    `Frames with more than one commit: useTaskStream ${chunkedFrames.crowded} of ${chunkedFrames.frames}; naive ${naiveFrames.crowded} of ${naiveFrames.frames}.`,
    ...goals.map(goalLine),
  ];
  return {
    title: `useTaskStream commits: ${EVENTS.toLocaleString('en')} events from the reference service in-process, one burst (one chunk) and one event per chunk (~1 ms apart), against a naive setState-per-event consumer`,
    rows,
    notes,
    goals,
  };
}
