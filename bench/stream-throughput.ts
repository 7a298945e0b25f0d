/**
 * Stream throughput: events per second of a 100,000-event stream over loopback, read by
 * (a) our client with validation, (b) our reader without validation, (c) `fetchEventSource()` from
 * @microsoft/fetch-event-source, and (d) fetch → TextDecoderStream → eventsource-parser's
 * `EventSourceParserStream`. Every contender parses each event's JSON and adds up a checksum, which
 * must match, as must the count. Ratios are against the better of (c) and (d).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fetchEventSource } from '@microsoft/fetch-event-source';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { createTaskClient } from '../src/client/index.js';
import { readServerSentEvents } from '../src/client/stream/sse-reader.js';
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
  '(b) taskwire reader, no validation': async (url) => {
    const response = await fetch(`${url}/workflows/bench/stream`, {
      method: 'POST',
      headers,
      body: '{"params":{}}',
    });
    let count = 0;
    let checksum = 0;
    for await (const messages of readServerSentEvents(
      response.body as ReadableStream<Uint8Array>,
    )) {
      for (const message of messages) {
        count++;
        checksum += valueOf(JSON.parse(message.data) as { type: string });
      }
    }
    return { count, checksum };
  },
  '(c) fetchEventSource()': async (url) => {
    let count = 0;
    let checksum = 0;
    await fetchEventSource(`${url}/workflows/bench/stream`, {
      method: 'POST',
      headers,
      body: '{"params":{}}',
      openWhenHidden: true,
      fetch: globalThis.fetch,
      onmessage(message) {
        // Like ours, skip the empty dispatch of every comment.
        if (message.data === '') return;
        count++;
        checksum += valueOf(JSON.parse(message.data) as { type: string });
      },
      onerror(error) {
        // Throwing is the only way to stop its endless re-POSTs.
        throw error;
      },
    });
    return { count, checksum };
  },
  '(d) TextDecoderStream → EventSourceParserStream': async (url) => {
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

/** Minimal DOM globals for `fetchEventSource()`, which touches `document` and `window` on every call. */
function stubDom(): () => void {
  const scope = globalThis as Record<string, unknown>;
  const had = { document: scope.document, window: scope.window };
  scope.document = { hidden: false, addEventListener() {}, removeEventListener() {} };
  scope.window = { fetch: globalThis.fetch, setTimeout, clearTimeout };
  return () => {
    scope.document = had.document;
    scope.window = had.window;
  };
}

/** Runs the benchmark and reports its table. */
export default async function streamThroughput(): Promise<BenchReport> {
  const { body, checksum: expectedChecksum } = buildBody();
  const expectedCount = EVENTS + 1;
  const { server, url } = await startServer(body);
  const restoreDom = stubDom();
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
    restoreDom();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  const median = (values: number[]): number => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] ?? 0;
  };
  const medians = new Map(names.map((name) => [name, median(rates.get(name) ?? [])]));
  const [validated, reader, fetchEventSourceName, parserStreamName] = names as [
    string,
    string,
    string,
    string,
  ];
  const baseline = Math.max(
    medians.get(fetchEventSourceName) ?? 0,
    medians.get(parserStreamName) ?? 0,
  );
  const mismatched = (name: string) => failures.some((failure) => failure.startsWith(name));
  const rows = names.map((name) => ({
    contender: name,
    'events/s (median)': Math.round(medians.get(name) ?? 0),
    'events/s (best)': Math.round(Math.max(...(rates.get(name) ?? [0]))),
    'vs best of (c),(d)': `${((medians.get(name) ?? 0) / baseline).toFixed(2)}×`,
    'count + checksum': mismatched(name) ? 'MISMATCH' : 'ok',
  }));
  const baselineName =
    (medians.get(fetchEventSourceName) ?? 0) >= (medians.get(parserStreamName) ?? 0)
      ? 'fetchEventSource()'
      : 'EventSourceParserStream';
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
      measure: `taskwire client with validation, median of ${ROUNDS} rounds, against the better of fetchEventSource() and EventSourceParserStream`,
      goal: '≥ 1.00×',
      verdict: verdict((validatedGoal.values.ratio ?? 0) >= 1),
    },
    {
      ...against(reader),
      measure: `taskwire reader without validation, median of ${ROUNDS} rounds (shown for comparison)`,
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
