/**
 * Stream throughput: events per second of a 100,000-event stream over loopback, read by (a) our
 * client, which parses each event's JSON and checks it with the event schemas, and (b) fetch →
 * TextDecoderStream → eventsource-parser's `EventSourceParserStream`, the parser our reader is
 * built on, with `JSON.parse` and no check. Both add up a checksum, which must match, as must the
 * count. The goal, ≥ 0.8× of (b), says our checks cost little; a real task sends a few events a
 * second.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { createTaskClient } from '../src/client/index.js';
import { formatCount, verdict, type BenchGoal, type BenchReport } from './bench-report.js';

const EVENTS = 100_000;
const ROUNDS = 7;
const CHUNK_BYTES = 64 * 1024;

/** The stream body, built once so every contender reads the very same bytes. */
function buildBody(): { body: Buffer; checksum: number } {
  const parts: string[] = [];
  let checksum = 0;
  for (let index = 1; index <= EVENTS; index++) {
    if (index % 10 === 0) {
      parts.push(
        `id: 00000000-0000-4000-8000-${String(index).padStart(12, '0')}\ndata: {"type":"event.frame-rendered","frame":${index}}\n\n`,
      );
      checksum += index;
    } else if (index % 100 === 1) {
      parts.push(
        `data: {"type":"task.partial-result","result":{"url":"https://files.example.com/p/${index}.mp4","frames":${index}}}\n\n`,
      );
      checksum += index;
    } else {
      parts.push(
        `data: {"type":"task.progress","percent":${(index / EVENTS) * 100},"estimatedSecondsLeft":${index}}\n\n`,
      );
      checksum += index;
    }
    if (index % 5000 === 0) parts.push(': keep-alive\n\n');
  }
  parts.push(
    'data: {"type":"task.completed","result":{"url":"https://files.example.com/v.mp4","frames":1},"usage":{"credits":1,"details":[{"toolId":"video-render","price":0.5,"amount":2,"credits":1,"failed":false}]}}\n\n',
  );
  checksum += 1;
  return { body: Buffer.from(parts.join('')), checksum };
}

/** The checksum part of one parsed event (every event adds a number it carries). */
function valueOf(event: { type: string; [field: string]: unknown }): number {
  switch (event.type) {
    case 'task.progress':
      return event.estimatedSecondsLeft as number;
    case 'event.frame-rendered':
      return event.frame as number;
    case 'task.partial-result':
    case 'task.completed':
      return (event.result as { frames: number }).frames;
    default:
      throw new Error(`unexpected event ${event.type}`);
  }
}

async function startServer(body: Buffer): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        'x-task-id': 'bench-task',
      });
      let offset = 0;
      const writeMore = (): void => {
        while (offset < body.length) {
          const chunk = body.subarray(offset, offset + CHUNK_BYTES);
          offset += chunk.length;
          if (!response.write(chunk)) {
            response.once('drain', writeMore);
            return;
          }
        }
        response.end();
      };
      writeMore();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

interface Outcome {
  count: number;
  checksum: number;
}

type Contender = (url: string) => Promise<Outcome>;

const headers = {
  authorization: 'Bearer bench',
  'x-app-authorization': 'Bearer bench',
  'content-type': 'application/json',
};

const contenders: Record<string, Contender> = {
  '(a) taskwire client, validated': async (url) => {
    const client = createTaskClient({ baseUrl: url, userToken: 'bench', clientToken: 'bench' });
    let count = 0;
    let checksum = 0;
    for await (const event of client.stream('bench', {})) {
      count++;
      checksum += valueOf(event as { type: string });
    }
    return { count, checksum };
  },
  '(b) TextDecoderStream → EventSourceParserStream': async (url) => {
    const response = await fetch(`${url}/workflows/bench/stream`, {
      method: 'POST',
      headers,
      body: '{"params":{}}',
    });
    if (response.body === null) throw new Error('no body');
    const events = response.body
      .pipeThrough(new TextDecoderStream())
      .pipeThrough(new EventSourceParserStream());
    const reader = events.getReader();
    let count = 0;
    let checksum = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      count++;
      checksum += valueOf(JSON.parse(value.data) as { type: string });
    }
    return { count, checksum };
  },
};

/** Runs the benchmark and reports its table. */
export default async function streamThroughput(): Promise<BenchReport> {
  const { body, checksum: expectedChecksum } = buildBody();
  const expectedCount = EVENTS + 1;
  const { server, url } = await startServer(body);
  const names = Object.keys(contenders);
  const rates = new Map<string, number[]>(names.map((name) => [name, []]));
  const failures: string[] = [];
  try {
    // One warm-up pass each, then rounds in a rotating order so no contender always goes first.
    for (const name of names) await contenders[name]?.(url);
    for (let round = 0; round < ROUNDS; round++) {
      for (let offset = 0; offset < names.length; offset++) {
        const name = names[(round + offset) % names.length] as string;
        const started = performance.now();
        const outcome = await (contenders[name] as Contender)(url);
        const seconds = (performance.now() - started) / 1000;
        if (outcome.count !== expectedCount || outcome.checksum !== expectedChecksum) {
          failures.push(
            `${name}: count ${outcome.count}/${expectedCount}, checksum ${outcome.checksum}/${expectedChecksum}`,
          );
        }
        rates.get(name)?.push(outcome.count / seconds);
      }
    }
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  const median = (values: number[]): number => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] ?? 0;
  };
  const medians = new Map(names.map((name) => [name, median(rates.get(name) ?? [])]));
  const [validated, parserStreamName] = names as [string, string];
  const baseline = medians.get(parserStreamName) ?? 0;
  const mismatched = (name: string) => failures.some((failure) => failure.startsWith(name));
  const rows = names.map((name) => ({
    contender: name,
    'events/s (median)': Math.round(medians.get(name) ?? 0),
    'events/s (best)': Math.round(Math.max(...(rates.get(name) ?? [0]))),
    'vs (b)': `${((medians.get(name) ?? 0) / baseline).toFixed(2)}×`,
    'count + checksum': mismatched(name) ? 'MISMATCH' : 'ok',
  }));
  const baselineName = 'EventSourceParserStream';
  const benchmark = 'Stream throughput';
  const against = (name: string): BenchGoal => {
    const figure = medians.get(name) ?? 0;
    return {
      benchmark,
      measure: '',
      figure: `${formatCount(figure)} events/s`,
      baseline: `${baselineName}: ${formatCount(baseline)} events/s`,
      ratio: `${(figure / baseline).toFixed(2)}×`,
      goal: '—',
      verdict: 'info',
      values: { figure, baseline, ratio: figure / baseline },
    };
  };
  const validatedGoal = against(validated);
  const goals: BenchGoal[] = [
    {
      ...validatedGoal,
      measure: `taskwire client, JSON.parse and schema checks, median of ${ROUNDS} rounds, against TextDecoderStream → EventSourceParserStream with JSON.parse`,
      goal: '≥ 0.80×',
      verdict: verdict((validatedGoal.values.ratio ?? 0) >= 0.8),
    },
    {
      benchmark,
      measure: 'event count and checksum of every contender, every round',
      figure: `${names.filter((name) => !mismatched(name)).length} of ${names.length} exact`,
      baseline: '—',
      ratio: '—',
      goal: 'exact',
      verdict: verdict(failures.length === 0),
      values: { figure: names.filter((name) => !mismatched(name)).length },
    },
  ];
  return {
    title: `Stream throughput: ${EVENTS.toLocaleString('en')} events over loopback, ${ROUNDS} rounds (${(body.length / 1024 / 1024).toFixed(1)} MiB)`,
    rows,
    notes:
      failures.length > 0
        ? failures
        : [`every contender read ${expectedCount} events, checksum ${expectedChecksum}`],
    goals,
  };
}
