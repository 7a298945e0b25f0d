/**
 * The relay of resumable streams: `createTaskProxy` with a `redisEventLog` against Vercel's
 * `resumable-stream` package (its `redis` entry, publisher and subscriber on the same
 * `redis-server`), each relaying the same 10,000-event stream of one upstream service (the
 * reference service as a 0.3 service, on loopback) to a page that reads it with the same naive
 * reader (fetch → `TextDecoderStream` → `EventSourceParserStream`). Measured: throughput of a whole
 * stream, and resume latency, from a resume request made while the stream is live (its 10,000
 * events relayed, the final one held back) to the first event it delivers.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from 'redis';
import { createResumableStreamContext } from 'resumable-stream/redis';
import * as z from 'zod/mini';
import { defineTask } from '../src/reference/index.js';
import { redisEventLog } from '../src/server/redis/index.js';
import { startRedisServer } from '../test/support/redis-server.js';
import {
  formatCount,
  goalLine,
  verdict,
  type BenchGoal,
  type BenchReport,
} from './bench-report.js';
import {
  demoHeaders,
  formatMs,
  percentile,
  readServerSentEvents,
  startLoopbackProxy,
  startLoopbackService,
} from './resumable-kit.js';

const EVENTS = 10_000;
const ROUNDS = 5;
const RESUMES = 30;

/** Held tasks wait here until the bench lets them end. */
const held = new Map<number, () => void>();

/** Reports `EVENTS` progress events as fast as it can; `hold` waits for the bench before it ends. */
const relayTask = defineTask({
  name: 'relay',
  params: z.object({ run: z.number(), hold: z.boolean() }),
  run: async (context, { run, hold }) => {
    for (let index = 1; index <= EVENTS; index += 1) {
      context.progress((index / EVENTS) * 100, EVENTS - index);
      // A macrotask now and then, as a real task's work between its events.
      if (index % 500 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    if (hold) await new Promise<void>((resolve) => held.set(run, resolve));
    return { run };
  },
});

/** What a page read of one stream: its progress events, their checksum, and whether it ended. */
interface Read {
  progress: number;
  checksum: number;
  completed: boolean;
}

function tally(read: Read, message: { type: string; [field: string]: unknown }): void {
  if (message.type === 'task.progress') {
    read.progress += 1;
    read.checksum += message.estimatedSecondsLeft as number;
  }
  if (message.type === 'task.completed') read.completed = true;
}

const expectedChecksum = (EVENTS * (EVENTS - 1)) / 2;

/** The relay of `resumable-stream`: POST /relay/<run> starts (or joins) one, GET /resume/<run> resumes it. */
async function startResumableStreamRelay(upstream: string, redisUrl: string) {
  const publisher = createClient({ url: redisUrl });
  const subscriber = createClient({ url: redisUrl });
  await Promise.all([publisher.connect(), subscriber.connect()]);
  const context = createResumableStreamContext({
    waitUntil: null,
    publisher: publisher as never,
    subscriber: subscriber as never,
  });
  const send = async (
    stream: ReadableStream<string> | null | undefined,
    response: ServerResponse,
  ) => {
    if (stream === null || stream === undefined) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const reader = stream.getReader();
    response.once('close', () => void reader.cancel().catch(() => undefined));
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!response.write(value)) await new Promise((resolve) => response.once('drain', resolve));
    }
    response.end();
  };
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const [, action, run] = (request.url ?? '').split('/');
    const streamId = `relay-${run}`;
    if (action === 'relay') {
      const stream = await context.resumableStream(streamId, () => {
        const body = fetch(`${upstream}/workflows/relay/stream`, {
          method: 'POST',
          headers: demoHeaders('service'),
          body: JSON.stringify({ params: { run: Number(run), hold: request.method === 'PUT' } }),
        }).then((answer) => (answer.body as ReadableStream).pipeThrough(new TextDecoderStream()));
        const { readable, writable } = new TransformStream<string, string>();
        void body.then((text) => text.pipeTo(writable));
        return readable;
      });
      await send(stream, response);
    } else {
      await send(await context.resumeExistingStream(streamId), response);
    }
  };
  const server: Server = createServer((request, response) => {
    request.resume();
    handle(request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await Promise.all([publisher.quit(), subscriber.quit()]);
    },
  };
}

type Relay = 'proxy + redisEventLog' | 'resumable-stream';

/** How each relay starts a stream (held or not) and resumes one, from a page's side. */
interface RelayRoutes {
  start(run: number, hold: boolean): Promise<Response>;
  /** A resume read of the stream `run`; for the proxy, its task id. */
  resume(run: number, taskId: string | undefined): Promise<Response>;
}

/** Reads one whole stream through `routes`: its read and events per second. */
async function timeWholeStream(routes: RelayRoutes, run: number) {
  const read: Read = { progress: 0, checksum: 0, completed: false };
  const began = performance.now();
  await readServerSentEvents(await routes.start(run, false), (message) => tally(read, message));
  return { read, perSecond: (read.progress + 1) / ((performance.now() - began) / 1000) };
}

/** Starts a held stream, reads its 10,000 events, then times `RESUMES` resumes to their first event. */
async function timeResumes(routes: RelayRoutes, run: number) {
  const read: Read = { progress: 0, checksum: 0, completed: false };
  const answer = await routes.start(run, true);
  const taskId = answer.headers.get('x-task-id') ?? undefined;
  const live = readServerSentEvents(answer, (message) => tally(read, message));
  while (read.progress < EVENTS) await new Promise((resolve) => setTimeout(resolve, 5));
  const latencies: number[] = [];
  let wrongFirst = 0;
  for (let resume = 0; resume < RESUMES; resume += 1) {
    const began = performance.now();
    let firstAt = Number.NaN;
    await readServerSentEvents(await routes.resume(run, taskId), (message) => {
      firstAt = performance.now();
      if (message.type !== 'task.progress' || message.estimatedSecondsLeft !== EVENTS - 1)
        wrongFirst += 1;
      return false;
    });
    latencies.push(firstAt - began);
  }
  held.get(run)?.();
  await live;
  return { latencies, wrongFirst, read };
}

/** Runs both relays in rotating order and reports them with the goals. */
export default async function run(): Promise<BenchReport> {
  const redis = await startRedisServer();
  const upstream = await startLoopbackService({ tasks: [relayTask], timeScale: 1, events: false });
  const proxy = await startLoopbackProxy(
    upstream.url,
    ['relay'],
    redisEventLog({ url: redis.url }, { maxLogBytes: 8 * 1024 * 1024 }),
  );
  const vercel = await startResumableStreamRelay(upstream.url, redis.url);
  const relays: Record<Relay, RelayRoutes> = {
    'proxy + redisEventLog': {
      start: (run, hold) =>
        fetch(`${proxy.url}/workflows/relay/stream`, {
          method: 'POST',
          headers: demoHeaders('proxy'),
          body: JSON.stringify({ params: { run, hold } }),
        }),
      resume: (_, taskId) =>
        fetch(`${proxy.url}/workflows/relay/${taskId ?? ''}/events`, {
          headers: demoHeaders('proxy'),
        }),
    },
    'resumable-stream': {
      start: (run, hold) => fetch(`${vercel.url}/relay/${run}`, { method: hold ? 'PUT' : 'POST' }),
      resume: (run) => fetch(`${vercel.url}/resume/${run}`),
    },
  };
  const names = Object.keys(relays) as Relay[];
  const rates = new Map<Relay, number[]>(names.map((name) => [name, []]));
  const latencies = new Map<Relay, number[]>(names.map((name) => [name, []]));
  const failures: string[] = [];
  let runId = 0;
  try {
    for (const name of names) await timeWholeStream(relays[name], (runId += 1));
    for (let round = 0; round < ROUNDS; round += 1) {
      for (let offset = 0; offset < names.length; offset += 1) {
        const name = names[(round + offset) % names.length] as Relay;
        const whole = await timeWholeStream(relays[name], (runId += 1));
        if (
          whole.read.progress !== EVENTS ||
          whole.read.checksum !== expectedChecksum ||
          !whole.read.completed
        )
          failures.push(
            `${name}, whole stream: ${whole.read.progress} events, checksum ${whole.read.checksum}`,
          );
        rates.get(name)?.push(whole.perSecond);
      }
    }
    for (let offset = 0; offset < names.length * 2; offset += 1) {
      const name = names[offset % names.length] as Relay;
      const resumed = await timeResumes(relays[name], (runId += 1));
      if (resumed.wrongFirst > 0 || resumed.read.progress !== EVENTS || !resumed.read.completed)
        failures.push(
          `${name}, resumes: ${resumed.wrongFirst} began with another event than the first`,
        );
      latencies.get(name)?.push(...resumed.latencies);
    }
  } finally {
    await vercel.close();
    await proxy.close();
    await upstream.close();
    await redis.stop();
  }
  const mismatched = (name: Relay) => failures.some((failure) => failure.startsWith(name));
  const rows = names.map((name) => ({
    relay: name,
    'events/s (median)': formatCount(percentile(rates.get(name) ?? [], 0.5)),
    'resume → first event p50 (ms)': percentile(latencies.get(name) ?? [], 0.5).toFixed(1),
    'p99 (ms)': percentile(latencies.get(name) ?? [], 0.99).toFixed(1),
    'count + checksum': mismatched(name) ? 'MISMATCH' : 'ok',
  }));
  const benchmark = 'Relay vs resumable-stream';
  const ours = 'proxy + redisEventLog';
  const theirs = 'resumable-stream';
  const rate = (name: Relay) => percentile(rates.get(name) ?? [], 0.5);
  const p50 = (name: Relay) => percentile(latencies.get(name) ?? [], 0.5);
  const p99 = (name: Relay) => percentile(latencies.get(name) ?? [], 0.99);
  const goals: BenchGoal[] = [
    {
      benchmark,
      measure: `throughput of a ${formatCount(EVENTS)}-event stream relayed through Redis, median of ${ROUNDS}`,
      figure: `${formatCount(rate(ours))} events/s`,
      baseline: `resumable-stream: ${formatCount(rate(theirs))} events/s`,
      ratio: `${(rate(ours) / rate(theirs)).toFixed(2)}×`,
      goal: '≥ 1.00×',
      verdict: verdict(rate(ours) >= rate(theirs) && failures.length === 0),
      values: { figure: rate(ours), baseline: rate(theirs), ratio: rate(ours) / rate(theirs) },
    },
    {
      benchmark,
      measure: `resume of a live ${formatCount(EVENTS)}-event stream from its start, request → first event, p50 and p99 of ${RESUMES * 2}`,
      figure: `${formatMs(p50(ours))}, ${formatMs(p99(ours))}`,
      baseline: `resumable-stream: ${formatMs(p50(theirs))}, ${formatMs(p99(theirs))}`,
      ratio: `${(p50(ours) / p50(theirs)).toFixed(2)}× at p50`,
      goal: 'no worse (p50 and p99 ≤ its)',
      verdict: verdict(
        p50(ours) <= p50(theirs) && p99(ours) <= p99(theirs) && failures.length === 0,
      ),
      values: { figure: p50(ours), baseline: p50(theirs), ratio: p50(ours) / p50(theirs) },
    },
  ];
  return {
    title: `Relay through Redis: createTaskProxy with redisEventLog against resumable-stream 2.2.13, the same ${formatCount(EVENTS)}-event stream of one upstream service, one redis-server`,
    rows,
    notes: [
      `Upstream: the reference service as a 0.3 service (events: false) on loopback; its task reports ${formatCount(EVENTS)} progress events as fast as it runs. Ours: the proxy (redisEventLog, maxLogBytes 8 MiB) answers the stream POST from its log; theirs: a Node HTTP route that hands the upstream stream's text to resumableStream() (publisher and subscriber clients of the redis package on the same redis-server) and writes what it returns. Both are read by fetch → TextDecoderStream → EventSourceParserStream → JSON.parse, counted and check-summed. Throughput: whole streams, rotating order, after one warm-up each. Resume: a stream whose task holds its final event back; once the page read its ${formatCount(EVENTS)} events, ${RESUMES} resume reads one after the other (ours GET …/events with no Last-Event-ID, theirs resumeExistingStream with no skipped characters: both replay from the first message), each timed from the request to its first event, which must be the task's first; two such streams each.`,
      ...(failures.length > 0 ? failures : []),
      ...goals.map(goalLine),
    ],
    goals,
  };
}
