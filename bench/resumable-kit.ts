/**
 * What the benchmarks of resumable streams share (docs/protocol.md, "Resumable streams (0.4)"):
 * a service on a loopback socket (the reference service, natively resumable or as a 0.3 service
 * behind the proxy), the proxy with an event log on a socket of its own, a real `redis-server`,
 * the naive reader the rows compare with (fetch → `TextDecoderStream` → `EventSourceParserStream`)
 * and percentiles.
 */
import { EventSourceParserStream } from 'eventsource-parser/stream';
import type { EventLog } from '../src/events/event-log.js';
import {
  createReferenceService,
  DEMO_CLIENT_TOKEN,
  DEMO_USER_TOKEN,
  type ReferenceServiceConfig,
} from '../src/reference/index.js';
import { startReferenceServer } from '../src/reference/node/index.js';
import { createTaskProxy } from '../src/server/index.js';

/** A service listening on loopback: its base URL and how to close it. */
export interface LoopbackService {
  url: string;
  close(): Promise<void>;
}

/** The reference service with `config` on a loopback socket. */
export async function startLoopbackService(
  config: ReferenceServiceConfig,
): Promise<LoopbackService> {
  const service = createReferenceService(config);
  const server = await startReferenceServer({ service });
  return { url: server.url, close: () => server.close() };
}

/**
 * `createTaskProxy` in front of `target` with `events` as its log (`false`: none, so it relays
 * streams as they come), on a loopback socket of its own.
 */
export async function startLoopbackProxy(
  target: string,
  tasks: readonly string[],
  events: EventLog | false,
): Promise<LoopbackService> {
  const proxy = createTaskProxy({ target, clientToken: DEMO_CLIENT_TOKEN, tasks, events });
  const server = await startReferenceServer({ service: proxy });
  return {
    url: server.url,
    async close() {
      await server.close();
      if (events !== false) await events.close();
    },
  };
}

/** The headers of the demo user, and the app's token unless the request goes through the proxy. */
export function demoHeaders(through: 'service' | 'proxy'): Record<string, string> {
  return {
    authorization: `Bearer ${DEMO_USER_TOKEN}`,
    'content-type': 'application/json',
    ...(through === 'service' ? { 'x-app-authorization': `Bearer ${DEMO_CLIENT_TOKEN}` } : {}),
  };
}

/** One message of a stream as the naive reader parses it. */
export interface ParsedMessage {
  type: string;
  [field: string]: unknown;
}

/**
 * The naive reader: `fetch` → `TextDecoderStream` → `EventSourceParserStream` → `JSON.parse`, no
 * checks, calling `onMessage` per message until it returns `false` or the stream ends. Resolves to
 * the number of messages read.
 */
export async function readServerSentEvents(
  response: Response,
  onMessage: (message: ParsedMessage) => boolean | void,
): Promise<number> {
  if (!response.ok || response.body === null) {
    throw new Error(`The stream was answered ${response.status}.`);
  }
  const reader = response.body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .getReader();
  let count = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return count;
      count += 1;
      if (onMessage(JSON.parse(value.data) as ParsedMessage) === false) return count;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** The value below which `fraction` (0–1) of `values` lie (nearest rank). */
export function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil(fraction * sorted.length));
  return sorted[rank - 1] ?? Number.NaN;
}

/** Milliseconds with one decimal, `12.3 ms`. */
export function formatMs(value: number): string {
  return `${value.toFixed(1)} ms`;
}
