/**
 * Heap used across a 100,000-event stream, sampled (after `global.gc()`) every 10,000 custom events,
 * while a `useTaskStream` consumer (default `maxEvents`, 100) renders it, against a naive consumer
 * that keeps every event in state. The stream comes from a generator in the client's `fetch`, in
 * the reference service's wire format, paused at each sample: the reference service itself keeps a
 * reference of every custom event for Get Result, which would count against the consumer here.
 */
import { frames } from './hooks-dom.js';
import { useEffect, useLayoutEffect, useState } from 'react';
import { useTaskStream } from '../src/react/index.js';
import { goalLine, verdict, type BenchGoal, type BenchReport } from './bench-report.js';
import { createFetchSetup, mount, reactBuild, sleep, until } from './hooks-kit.js';

const EVENTS = 100_000;
const SAMPLE_EVERY = 10_000;
const EVENTS_PER_CHUNK = 100;
/** The most the heap may grow from the first sample to the last for the goal. */
const FLAT_MARGIN_BYTES = 5 * 1024 * 1024;
const TASK_ID = '6f1c2a44-6a1e-4d0b-9a53-0c9d3f1b7e21';

type Consumer = 'useTaskStream' | 'naive (all events in state)';

/** A custom event of the stream, as the client hands it over (with its SSE id). */
interface TickEvent {
  type: 'event.tick';
  index: number;
  label: string;
  eventId?: string;
}

/** What the consumer has shown so far: the index of the last event in its last commit. */
interface Progress {
  received: number;
  rendered: number;
}

type MemoryClient = ReturnType<typeof createFetchSetup>['client'];

function HookConsumer(props: { onReceived: () => void; onRendered: (index: number) => void }) {
  const { onReceived, onRendered } = props;
  const stream = useTaskStream('ticks', { onEvent: onReceived });
  const last = stream.events.at(-1) as TickEvent | undefined;
  const { start } = stream;
  useEffect(() => start({}), [start]);
  useLayoutEffect(() => onRendered(last?.index ?? 0), [onRendered, last]);
  return (
    <p>
      {stream.status}: {stream.events.length} events kept, last {last?.label}
    </p>
  );
}

function NaiveConsumer(props: {
  client: MemoryClient;
  onReceived: () => void;
  onRendered: (index: number) => void;
}) {
  const { client, onReceived, onRendered } = props;
  // The immutable `[...previous, event]` keeps the same events but copies the whole list per
  // event: O(n²), about 3 s for 20,000 events here and over a minute for 100,000. Appending in
  // place keeps what matters here, every event held by state, at a cost the bench can afford.
  const [events] = useState<TickEvent[]>(() => []);
  const [count, setCount] = useState(0);
  useEffect(() => {
    const abort = new AbortController();
    const read = async () => {
      for await (const event of client.stream('ticks', {}, { signal: abort.signal })) {
        if (event.type !== 'event.tick') continue;
        events.push(event as unknown as TickEvent);
        onReceived();
        setCount(events.length);
      }
    };
    read().catch(() => undefined);
    return () => abort.abort();
  }, [client, events, onReceived]);
  const last = events[count - 1];
  useLayoutEffect(() => onRendered(last?.index ?? 0), [onRendered, last]);
  return (
    <p>
      {count} events kept, last {last?.label}
    </p>
  );
}

/**
 * A `fetch` that answers the stream POST with `EVENTS` custom events, `EVENTS_PER_CHUNK` per chunk
 * with a macrotask between chunks (so frames pass), then `task.completed`. Before each
 * `SAMPLE_EVERY`-th event it waits for `checkpoint`.
 */
function tickStreamFetch(checkpoint: (emitted: number) => Promise<void>) {
  const encoder = new TextEncoder();
  return async (request: Request): Promise<Response> => {
    await request.text();
    let emitted = 0;
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          await new Promise((resolve) => setImmediate(resolve));
          if (emitted % SAMPLE_EVERY === 0) await checkpoint(emitted);
          if (emitted === EVENTS) {
            controller.enqueue(
              encoder.encode(`data: {"type":"task.completed","result":{"events":${EVENTS}}}\n\n`),
            );
            controller.close();
            return;
          }
          let text = '';
          for (let count = 0; count < EVENTS_PER_CHUNK; count += 1) {
            emitted += 1;
            text += `id: ${crypto.randomUUID()}\ndata: {"type":"event.tick","index":${emitted},"label":"tick ${emitted} of ${EVENTS}"}\n\n`;
          }
          controller.enqueue(encoder.encode(text));
        },
      },
      { highWaterMark: 0 },
    );
    return new Response(body, {
      status: 200,
      headers: { 'content-type': 'text/event-stream', 'x-task-id': TASK_ID },
    });
  };
}

interface Sample {
  events: number;
  heapUsed: number;
}

async function heapAfterGc(gc: () => void): Promise<number> {
  // A few rounds: finalizers and weak references free more on the next collection.
  for (let round = 0; round < 3; round += 1) {
    gc();
    await sleep(5);
  }
  return process.memoryUsage().heapUsed;
}

async function sampleHeap(consumer: Consumer, gc: () => void): Promise<Sample[]> {
  const samples: Sample[] = [];
  const progress: Progress = { received: 0, rendered: 0 };
  const onReceived = () => {
    progress.received += 1;
  };
  const onRendered = (index: number) => {
    progress.rendered = index;
  };
  const setup = createFetchSetup(
    tickStreamFetch(async (emitted) => {
      await until(
        () => progress.received === emitted && progress.rendered === emitted,
        `${consumer} to render event ${emitted}`,
      );
      samples.push({ events: emitted, heapUsed: await heapAfterGc(gc) });
    }),
  );
  const release = frames.hold();
  const view = mount(
    <setup.Providers>
      {consumer === 'useTaskStream' ? (
        <HookConsumer onReceived={onReceived} onRendered={onRendered} />
      ) : (
        <NaiveConsumer client={setup.client} onReceived={onReceived} onRendered={onRendered} />
      )}
    </setup.Providers>,
  );
  try {
    await until(
      () => samples.length === EVENTS / SAMPLE_EVERY + 1,
      `${consumer} to finish`,
      90_000,
    );
    return samples;
  } finally {
    view.unmount();
    release();
    await setup.close();
  }
}

const megabytes = (bytes: number) => (bytes / (1024 * 1024)).toFixed(1);

/** Samples the heap for both consumers and reports the samples with the goal. */
export default async function run(): Promise<BenchReport> {
  const gc = (globalThis as { gc?: () => void }).gc;
  const benchmark = 'useTaskStream memory';
  const measure = `heap growth (after gc) from ${SAMPLE_EVERY.toLocaleString('en')} to ${EVENTS.toLocaleString('en')} custom events, default maxEvents`;
  const goal = `< ${megabytes(FLAT_MARGIN_BYTES)} MB (flat)`;
  if (gc === undefined) {
    const notMeasured: BenchGoal = {
      benchmark,
      measure,
      figure: 'not measured: run node with --expose-gc (npm run bench does)',
      baseline: '—',
      ratio: '—',
      goal,
      verdict: 'MISS',
      values: { figure: Number.NaN },
    };
    return {
      title: 'useTaskStream memory across a 100,000-event stream',
      rows: [{ result: 'not run' }],
      notes: [goalLine(notMeasured)],
      goals: [notMeasured],
    };
  }
  const consumers: Consumer[] = ['useTaskStream', 'naive (all events in state)'];
  const results = new Map<Consumer, Sample[]>();
  for (const consumer of consumers) results.set(consumer, await sampleHeap(consumer, gc));
  const hook = results.get('useTaskStream') as Sample[];
  const naive = results.get('naive (all events in state)') as Sample[];
  const rows = hook.map((sample, index) => ({
    events: sample.events.toLocaleString('en'),
    'useTaskStream heap (MB)': megabytes(sample.heapUsed),
    'naive heap (MB)': megabytes(naive[index]?.heapUsed ?? Number.NaN),
  }));
  // The first sample with events in: at 0 the stream is open but nothing has been received.
  const growth = (samples: Sample[]) =>
    (samples.at(-1) as Sample).heapUsed - (samples[1] as Sample).heapUsed;
  const fromOpen = (samples: Sample[]) =>
    (samples.at(-1) as Sample).heapUsed - (samples[0] as Sample).heapUsed;
  const hookGrowth = growth(hook);
  const naiveGrowth = growth(naive);
  const perEvent = (bytes: number) => Math.round(bytes / (EVENTS - SAMPLE_EVERY));
  const signed = (bytes: number) => `${bytes >= 0 ? '+' : '−'}${megabytes(Math.abs(bytes))} MB`;
  const goals: BenchGoal[] = [
    {
      benchmark,
      measure,
      figure: signed(hookGrowth),
      baseline: `naive, every event kept in state: ${signed(naiveGrowth)} (~${perEvent(naiveGrowth)} B per event)`,
      ratio: '—',
      goal,
      verdict: verdict(hookGrowth < FLAT_MARGIN_BYTES),
      values: { figure: hookGrowth, baseline: naiveGrowth },
    },
  ];
  return {
    title: `Heap used (after gc) across a ${EVENTS.toLocaleString('en')}-event stream of custom events, useTaskStream (maxEvents 100) against a naive consumer that keeps every event in state`,
    rows,
    notes: [
      `React build: ${reactBuild}. Sampled after global.gc() with the stream paused before every ${SAMPLE_EVERY.toLocaleString('en')}-th event, once the consumer had received and rendered all before it. Events come ${EVENTS_PER_CHUNK} per chunk from a generator in the client's fetch (the real client parses and checks them), each with an SSE id as the reference service sends. Growth is measured from the ${SAMPLE_EVERY.toLocaleString('en')}-event sample to the last.`,
      `From the 0-event sample (stream open, nothing received): useTaskStream ${signed(fromOpen(hook))}, naive ${signed(fromOpen(naive))}.`,
      ...goals.map(goalLine),
    ],
    goals,
  };
}
