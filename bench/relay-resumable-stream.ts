/**
 * The relay of resumable streams: `createTaskProxy` with a `redisEventLog` against Vercel's
 * `resumable-stream` package (its `redis` entry, publisher and subscriber on the same
 * `redis-server`), each relaying the same 10,000-event stream of one upstream service (the
 * reference service as a 0.3 service, on loopback) to a page that reads it with the same naive
 * reader (fetch → `TextDecoderStream` → `EventSourceParserStream`). Both are Web handlers served
 * by the same node adapter; resumable-stream written to a `node:http` answer by hand is shown
 * beside, without a goal. Measured: throughput of a whole stream, and resume latency, from a
 * resume request made while the stream is live (its 10,000 events relayed, the final one held
 * back) to the first event it delivers. The same proxy without a log and with `memoryEventLog`, and
 * the CPU time `redis-server` spends per stream, are shown beside without goals: they say which part
 * of the relay costs what.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from 'redis';
import { createResumableStreamContext } from 'resumable-stream/redis';
import * as z from 'zod/mini';
import { defineTask } from '../src/reference/index.js';
import { startReferenceServer } from '../src/reference/node/index.js';
import { memoryEventLog } from '../src/events/memory-event-log.js';
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
const ROUNDS = 15;
/** Resumes per held stream: two streams make 200, so that p99 is not just the slowest one. */
const RESUMES = 100;

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

/** How a `resumable-stream` relay is served: as its README's route handlers, or as a node:http route of its own. */
type Serving = 'web handler' | 'node:http loop';

/**
 * The relay of `resumable-stream`: POST /relay/<run> starts (or joins) one, GET /resume/<run>
 * resumes it. As a `web handler` it answers `new Response(stream)` as its README's route handlers
 * do, served by the same node adapter as the proxy (startReferenceServer), so that both relays pay
 * the same HTTP plumbing; as a `node:http loop` it writes the stream's strings to a `node:http`
 * answer itself (how the row first served it; shown beside, without a goal).
 */
async function startResumableStreamRelay(upstream: string, redisUrl: string, serving: Serving) {
  const publisher = createClient({ url: redisUrl });
  const subscriber = createClient({ url: redisUrl });
  await Promise.all([publisher.connect(), subscriber.connect()]);
  const context = createResumableStreamContext({
    waitUntil: null,
    publisher: publisher as never,
    subscriber: subscriber as never,
  });
  const streamOf = async (action: string | undefined, run: string | undefined, hold: boolean) => {
    const streamId = `relay-${serving}-${run}`;
    if (action !== 'relay') return context.resumeExistingStream(streamId);
    return context.resumableStream(streamId, () => {
      const body = fetch(`${upstream}/workflows/relay/stream`, {
        method: 'POST',
        headers: demoHeaders('service'),
        body: JSON.stringify({ params: { run: Number(run), hold } }),
      }).then((answer) => (answer.body as ReadableStream).pipeThrough(new TextDecoderStream()));
      const { readable, writable } = new TransformStream<string, string>();
      void body.then((text) => text.pipeTo(writable));
      return readable;
    });
  };
  const closeClients = () => Promise.all([publisher.quit(), subscriber.quit()]);
  if (serving === 'web handler') {
    const server = await startReferenceServer({
      service: {
        async fetch(request) {
          const [, action, run] = new URL(request.url).pathname.split('/');
          const stream = await streamOf(action, run, request.method === 'PUT');
          if (stream === null || stream === undefined) return new Response(null, { status: 404 });
          // A Response's body is bytes: the README's string stream, encoded chunk by chunk (with
          // TextEncoder: Node 20's TextEncoderStream takes about 50 ms for a 700 kB string).
          const encoder = new TextEncoder();
          const encode = new TransformStream<string, Uint8Array>({
            transform: (text, controller) => controller.enqueue(encoder.encode(text)),
          });
          return new Response(stream.pipeThrough(encode), {
            headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
          });
        },
      },
    });
    return {
      url: server.url,
      async close() {
        await server.close();
        await closeClients();
      },
    };
  }
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
  const server: Server = createServer((request, response) => {
    request.resume();
    const [, action, run] = (request.url ?? '').split('/');
    streamOf(action, run, request.method === 'PUT')
      .then((stream) => send(stream, response))
      .catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await closeClients();
    },
  };
}

type Relay =
  | 'proxy + redisEventLog'
  | 'resumable-stream'
  | 'resumable-stream, node:http loop'
  | 'proxy + memoryEventLog'
  | 'proxy, no log';

/** How each relay starts a stream (held or not) and resumes one, from a page's side. */
interface RelayRoutes {
  start(run: number, hold: boolean): Promise<Response>;
  /** A resume read of the stream `run`; for the proxy, its task id. None where no resume is timed. */
  resume?(run: number, taskId: string | undefined): Promise<Response>;
}

/** The routes of a proxy on `url`: the stream POST, and the events read when its resume is `timed`. */
function proxyRoutes(url: string, timed: boolean): RelayRoutes {
  const start = (run: number, hold: boolean) =>
    fetch(`${url}/workflows/relay/stream`, {
      method: 'POST',
      headers: demoHeaders('proxy'),
      body: JSON.stringify({ params: { run, hold } }),
    });
  const resume = (_: number, taskId: string | undefined) =>
    fetch(`${url}/workflows/relay/${taskId ?? ''}/events`, { headers: demoHeaders('proxy') });
  return timed ? { start, resume } : { start };
}

/** The CPU time `redis-server` has used so far, in milliseconds, from its `INFO cpu` answer. */
function redisCpuMs(info: string): number {
  const seconds = (field: string) => Number(new RegExp(`^${field}:([0-9.]+)`, 'm').exec(info)?.[1]);
  return (seconds('used_cpu_user') + seconds('used_cpu_sys')) * 1000;
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
  const resume = routes.resume;
  if (resume === undefined) throw new Error('This relay keeps no stream to resume.');
  for (let index = 0; index < RESUMES; index += 1) {
    const began = performance.now();
    let firstAt = Number.NaN;
    await readServerSentEvents(await resume(run, taskId), (message) => {
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

/** Runs the relays in rotating order and reports them with the goals. */
export default async function run(): Promise<BenchReport> {
  const redis = await startRedisServer();
  const upstream = await startLoopbackService({ tasks: [relayTask], timeScale: 1, events: false });
  const limits = { maxLogBytes: 8 * 1024 * 1024 };
  const proxy = await startLoopbackProxy(
    upstream.url,
    ['relay'],
    redisEventLog({ url: redis.url }, limits),
  );
  // Throughput only, keeping two logs: the logs of every stream, kept in this process, would make
  // its garbage collection slower for every row.
  const memoryProxy = await startLoopbackProxy(
    upstream.url,
    ['relay'],
    memoryEventLog({ ...limits, maxTasks: 2 }),
  );
  const plainProxy = await startLoopbackProxy(upstream.url, ['relay'], false);
  const vercel = await startResumableStreamRelay(upstream.url, redis.url, 'web handler');
  const vercelNode = await startResumableStreamRelay(upstream.url, redis.url, 'node:http loop');
  const cpuClient = createClient({ url: redis.url });
  await cpuClient.connect();
  const relays: Record<Relay, RelayRoutes> = {
    'proxy + redisEventLog': proxyRoutes(proxy.url, true),
    'resumable-stream': {
      start: (run, hold) => fetch(`${vercel.url}/relay/${run}`, { method: hold ? 'PUT' : 'POST' }),
      resume: (run) => fetch(`${vercel.url}/resume/${run}`),
    },
    'resumable-stream, node:http loop': {
      start: (run, hold) =>
        fetch(`${vercelNode.url}/relay/${run}`, { method: hold ? 'PUT' : 'POST' }),
      resume: (run) => fetch(`${vercelNode.url}/resume/${run}`),
    },
    'proxy + memoryEventLog': proxyRoutes(memoryProxy.url, false),
    'proxy, no log': proxyRoutes(plainProxy.url, false),
  };
  const names = Object.keys(relays) as Relay[];
  const rates = new Map<Relay, number[]>(names.map((name) => [name, []]));
  const redisCpu = new Map<Relay, number[]>(names.map((name) => [name, []]));
  const latencies = new Map<Relay, number[]>(names.map((name) => [name, []]));
  const failures: string[] = [];
  let runId = 0;
  try {
    for (const name of names) await timeWholeStream(relays[name], (runId += 1));
    for (let round = 0; round < ROUNDS; round += 1) {
      for (let offset = 0; offset < names.length; offset += 1) {
        const name = names[(round + offset) % names.length] as Relay;
        const cpuBefore = redisCpuMs(String(await cpuClient.info('cpu')));
        const whole = await timeWholeStream(relays[name], (runId += 1));
        redisCpu.get(name)?.push(redisCpuMs(String(await cpuClient.info('cpu'))) - cpuBefore);
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
    const resumable = names.filter((name) => relays[name].resume !== undefined);
    for (let offset = 0; offset < resumable.length * 2; offset += 1) {
      const name = resumable[offset % resumable.length] as Relay;
      const resumed = await timeResumes(relays[name], (runId += 1));
      if (resumed.wrongFirst > 0 || resumed.read.progress !== EVENTS || !resumed.read.completed)
        failures.push(
          `${name}, resumes: ${resumed.wrongFirst} began with another event than the first`,
        );
      latencies.get(name)?.push(...resumed.latencies);
    }
  } finally {
    await cpuClient.quit();
    await vercel.close();
    await vercelNode.close();
    await proxy.close();
    await memoryProxy.close();
    await plainProxy.close();
    await upstream.close();
    await redis.stop();
  }
  const mismatched = (name: Relay) => failures.some((failure) => failure.startsWith(name));
  /** A percentile of `values` in milliseconds with one decimal, `—` when there are none. */
  const msCell = (values: readonly number[] | undefined, fraction: number) =>
    values === undefined || values.length === 0 ? '—' : percentile(values, fraction).toFixed(1);
  const rows = names.map((name) => ({
    relay: name,
    'events/s (median)': formatCount(percentile(rates.get(name) ?? [], 0.5)),
    'redis-server CPU per stream (ms, median)': msCell(redisCpu.get(name), 0.5),
    'resume → first event p50 (ms)': msCell(latencies.get(name), 0.5),
    'p99 (ms)': msCell(latencies.get(name), 0.99),
    'count + checksum': mismatched(name) ? 'MISMATCH' : 'ok',
  }));
  const benchmark = 'Relay vs resumable-stream';
  const ours = 'proxy + redisEventLog';
  const theirs = 'resumable-stream';
  const handWritten = 'resumable-stream, node:http loop';
  const rate = (name: Relay) => percentile(rates.get(name) ?? [], 0.5);
  const p50 = (name: Relay) => percentile(latencies.get(name) ?? [], 0.5);
  const p99 = (name: Relay) => percentile(latencies.get(name) ?? [], 0.99);
  const redisMs = (name: Relay) => percentile(redisCpu.get(name) ?? [], 0.5);
  /** A throughput shown beside the goal: `name` against resumable-stream. */
  const throughputBeside = (name: Relay, measure: string): BenchGoal => ({
    benchmark,
    measure,
    figure: `${formatCount(rate(name))} events/s`,
    baseline: `resumable-stream: ${formatCount(rate(theirs))} events/s`,
    ratio: `${(rate(name) / rate(theirs)).toFixed(2)}×`,
    goal: '—',
    verdict: 'info',
    values: { figure: rate(name), baseline: rate(theirs), ratio: rate(name) / rate(theirs) },
  });
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
    {
      benchmark,
      measure: `throughput as above, against resumable-stream written to a node:http answer by hand (how this row first served it), median of ${ROUNDS}`,
      figure: `${formatCount(rate(ours))} events/s`,
      baseline: `${handWritten}: ${formatCount(rate(handWritten))} events/s`,
      ratio: `${(rate(ours) / rate(handWritten)).toFixed(2)}×`,
      goal: '—',
      verdict: 'info',
      values: {
        figure: rate(ours),
        baseline: rate(handWritten),
        ratio: rate(ours) / rate(handWritten),
      },
    },
    throughputBeside(
      'proxy + memoryEventLog',
      `throughput as above, the proxy logging into memoryEventLog: the relay's own work without Redis, median of ${ROUNDS}`,
    ),
    throughputBeside(
      'proxy, no log',
      `throughput as above, the proxy without a log (the stream passed on as it came, nothing parsed or kept), median of ${ROUNDS}`,
    ),
    {
      benchmark,
      measure: `CPU time redis-server spent per ${formatCount(EVENTS)}-event stream relayed, median of ${ROUNDS} (its INFO cpu)`,
      figure: formatMs(redisMs(ours)),
      baseline: `resumable-stream: ${formatMs(redisMs(theirs))}`,
      ratio: `${(redisMs(ours) / redisMs(theirs)).toFixed(1)}×`,
      goal: '—',
      verdict: 'info',
      values: {
        figure: redisMs(ours),
        baseline: redisMs(theirs),
        ratio: redisMs(ours) / redisMs(theirs),
      },
    },
  ];
  return {
    title: `Relay through Redis: createTaskProxy with redisEventLog against resumable-stream 2.2.13, the same ${formatCount(EVENTS)}-event stream of one upstream service, one redis-server`,
    rows,
    notes: [
      `Upstream: the reference service as a 0.3 service (events: false) on loopback; its task reports ${formatCount(EVENTS)} progress events as fast as it runs. Ours: the proxy (redisEventLog, maxLogBytes 8 MiB) relays the stream into its log and answers the stream POST from its relay, each message once the log took it. Theirs: a Web handler, as resumable-stream's README's route handlers, that hands the upstream stream's text to resumableStream() (publisher and subscriber clients of the redis package on the same redis-server) and answers new Response() with what it returns, encoded. Both handlers are served by the same node adapter (startReferenceServer), so the comparison is of the relays, not of two servers' plumbing; the row 'resumable-stream, node:http loop' is theirs written to a node:http answer by hand, as this row first served it, shown without a goal. Both are read by fetch → TextDecoderStream → EventSourceParserStream → JSON.parse, counted and check-summed. Throughput: whole streams, rotating order, after one warm-up each. Resume: a stream whose task holds its final event back; once the page read its ${formatCount(EVENTS)} events, ${RESUMES} resume reads one after the other (ours GET …/events with no Last-Event-ID, theirs resumeExistingStream with no skipped characters: both replay from the first message), each timed from the request to its first event, which must be the task's first; two such streams each (none through the proxy without a log or with memoryEventLog, which keeps only its last two logs). Beside the goals, the same proxy without a log and with memoryEventLog, and the CPU time redis-server spent on each stream (INFO cpu, read before and after it), say what each part costs: the proxy's relay itself, the parsing and positions a log needs, and writing every message to Redis, which resumable-stream does only once a resume asks for the stream.`,
      ...(failures.length > 0 ? failures : []),
      ...goals.map(goalLine),
    ],
    goals,
  };
}
