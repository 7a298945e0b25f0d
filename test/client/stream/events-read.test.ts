/**
 * `client.events()` (docs/protocol.md, "Resumable streams (0.4)") against the real reference
 * service, in-process: the whole sequence of a task from its first message or after a position,
 * the typed errors, a resumable stream's positions, and the seeded fault seam: the read's body cut
 * at random byte offsets, read on from the last position each time, delivers the exact sequence
 * with no second POST.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTaskClient, TaskwireError, type StreamEvent } from '../../../src/client/index.js';
import { resumableReadsOf } from '../../../src/client/resumable-reads.js';
import {
  createReferenceService,
  type ReferenceService,
  type ReferenceServiceConfig,
} from '../../../src/reference/index.js';
import { memoryEventLog } from '../../../src/events/memory-event-log.js';
import { DEMO_TOKENS, OTHER_AUTH } from '../../support/demo-auth.js';
import { failure } from '../../support/failure.js';
import { cutBodyAt, seededRandom } from '../../support/cut-body-at.js';

const BASE = 'http://reference.test';
const services: ReferenceService[] = [];

afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(services.splice(0).map((service) => service.close()));
});

/** A fresh service, and a count of the requests it answered, by method and endpoint. */
function serve(config: ReferenceServiceConfig = {}) {
  const service = createReferenceService({ timeScale: 0.001, ...config });
  services.push(service);
  const requests: string[] = [];
  const fetch = (request: Request) => {
    const path = new URL(request.url).pathname;
    requests.push(`${request.method} ${path.slice(path.lastIndexOf('/') + 1)}`);
    return service.fetch(request);
  };
  return { service, requests, fetch };
}

/** Every message of a read, as position and event. */
async function collect<Event>(
  messages: AsyncIterable<{ position: string; event: Event }>,
): Promise<Array<{ position: string; event: Event }>> {
  const all: Array<{ position: string; event: Event }> = [];
  for await (const message of messages) all.push(message);
  return all;
}

/** Streams render-video to its end; resolves to the task id and the stream's events. */
async function streamToEnd(client: ReturnType<typeof createTaskClient>, frames: number) {
  const stream = client.stream('render-video', { frames, frameMs: 10 });
  const events: StreamEvent[] = [];
  const positions: string[] = [];
  for await (const event of stream) {
    events.push(event as StreamEvent);
    positions.push(stream.position!);
  }
  return { taskId: stream.taskId!, events, positions, resumable: stream.resumable };
}

describe('client.events', () => {
  it('reads a task from its first message: the events of its stream, payloads and ids included', async () => {
    const { fetch, requests } = serve();
    const client = createTaskClient({ baseUrl: BASE, fetch, ...DEMO_TOKENS });
    const streamed = await streamToEnd(client, 6);
    expect(streamed.resumable).toBe(true);
    expect([...streamed.positions].sort()).toEqual(streamed.positions);
    const read = await collect(client.events('render-video', streamed.taskId));
    expect(read.map((message) => message.event)).toEqual(streamed.events);
    expect(read.map((message) => message.position)).toEqual(streamed.positions);
    // Custom events carry their payload and the id Get Result lists.
    const record = await client.getResult('render-video', streamed.taskId);
    const custom = read
      .map((message) => message.event)
      .filter((event): event is StreamEvent & { eventId: string } =>
        event.type.startsWith('event.'),
      );
    expect(custom.map((event) => event.eventId)).toEqual(record.events.map((event) => event.id));
    expect(custom[0]).toMatchObject({ type: 'event.frame-rendered', frame: 1 });
    expect(requests.filter((request) => request.startsWith('POST'))).toEqual(['POST stream']);
  });

  it('reads on after a position: exactly the messages after it', async () => {
    const { fetch } = serve();
    const client = createTaskClient({ baseUrl: BASE, fetch, ...DEMO_TOKENS });
    const streamed = await streamToEnd(client, 4);
    for (let index = 0; index < streamed.positions.length; index++) {
      const rest = await collect(
        client.events('render-video', streamed.taskId, { after: streamed.positions[index] }),
      );
      expect(rest.map((message) => message.position)).toEqual(streamed.positions.slice(index + 1));
    }
  });

  it("answers another user's task 404 RESULT_NOT_FOUND, a log past its limits 410, a 0.3 service 404 NOT_FOUND", async () => {
    const { fetch, service } = serve({ events: memoryEventLog({ maxLogBytes: 300 }) });
    const client = createTaskClient({ baseUrl: BASE, fetch, ...DEMO_TOKENS });
    const taskId = (await client.submit('render-video', { frames: 8, frameMs: 10 })).id;
    while ((await client.getResult('render-video', taskId)).status !== 'COMPLETED') {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const other = createTaskClient({
      baseUrl: BASE,
      fetch: (request) => {
        const headers = new Headers(request.headers);
        headers.set('authorization', OTHER_AUTH.authorization!);
        return service.fetch(new Request(request, { headers }));
      },
      clientToken: DEMO_TOKENS.clientToken,
    });
    const notYours = await failure(collect(other.events('render-video', taskId)));
    expect([notYours.code, notYours.status, notYours.reason]).toEqual([
      'http',
      404,
      'RESULT_NOT_FOUND',
    ]);
    const expired = await failure(collect(client.events('render-video', taskId)));
    expect([expired.code, expired.status, expired.reason]).toEqual(['http', 410, 'EVENTS_EXPIRED']);
    const old = serve({ events: false });
    const oldClient = createTaskClient({ baseUrl: BASE, fetch: old.fetch, ...DEMO_TOKENS });
    const id = (await oldClient.submit('echo', { message: 'x' })).id;
    const none = await failure(collect(oldClient.events('echo', id)));
    expect([none.code, none.status, none.reason]).toEqual(['http', 404, 'NOT_FOUND']);
    // A 0.3 service's stream is no resumable stream: no position, ids from the id: lines.
    const streamed = await streamToEnd(oldClient, 2);
    expect(streamed.resumable).toBe(false);
    expect(streamed.positions.every((position) => position === undefined)).toBe(true);
    const record = await oldClient.getResult('render-video', streamed.taskId);
    expect(
      streamed.events
        .filter((event) => event.type.startsWith('event.'))
        .map((event) => (event as { eventId?: string }).eventId),
    ).toEqual(record.events.map((event) => event.id));
  });

  it('refuses a bad name, id or position before any request', async () => {
    const { fetch, requests } = serve();
    const client = createTaskClient({ baseUrl: BASE, fetch, ...DEMO_TOKENS });
    for (const [task, id, after] of [
      ['bad name', 'x', undefined],
      ['echo', '', undefined],
      ['echo', 'x', 'a position\n'],
    ] as const) {
      const error = await failure(collect(client.events(task, id, { after })));
      expect(error.code).toBe('protocol');
    }
    expect(requests).toEqual([]);
  });

  it('refuses a read whose messages carry no position, as a protocol error', async () => {
    const { fetch } = serve();
    const client = createTaskClient({ baseUrl: BASE, fetch, ...DEMO_TOKENS });
    const { taskId } = await streamToEnd(client, 2);
    const stripped = createTaskClient({
      baseUrl: BASE,
      ...DEMO_TOKENS,
      fetch: async (request) => {
        const response = await fetch(request);
        const text = (await response.text()).replace(/^id: .*\n/gm, '');
        return new Response(text, { status: response.status, headers: response.headers });
      },
    });
    const error = await failure(collect(stripped.events('render-video', taskId)));
    expect(error.code).toBe('protocol');
    expect(error.message).toContain('position');
  });

  it('reads on by itself after the connection drops, with no repeat and no POST', async () => {
    const { fetch, requests } = serve();
    const client = createTaskClient({ baseUrl: BASE, fetch, ...DEMO_TOKENS });
    const streamed = await streamToEnd(client, 10);
    let reads = 0;
    const cutting = createTaskClient({
      baseUrl: BASE,
      ...DEMO_TOKENS,
      fetch: async (request) => {
        const response = await fetch(request);
        // The first read breaks after 700 bytes, mid-message.
        return ++reads === 1 ? cutBodyAt(response, 700) : response;
      },
    });
    const read = await collect(cutting.events('render-video', streamed.taskId));
    expect(read.map((message) => message.event)).toEqual(streamed.events);
    expect(reads).toBe(2);
    expect(requests.filter((request) => request.startsWith('POST'))).toEqual(['POST stream']);
  });

  it('gives up after three reads in a row that bring no message, with the network error', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { fetch } = serve();
    const client = createTaskClient({ baseUrl: BASE, fetch, ...DEMO_TOKENS });
    const id = (await client.submit('echo', { message: 'x' })).id;
    let reads = 0;
    const cutting = createTaskClient({
      baseUrl: BASE,
      ...DEMO_TOKENS,
      fetch: async (request) => {
        reads += 1;
        return cutBodyAt(await fetch(request), 0);
      },
    });
    const outcome = failure(collect(cutting.events('echo', id)));
    await vi.advanceTimersByTimeAsync(10_000);
    const error = await outcome;
    expect(error.code).toBe('network');
    expect(error.taskId).toBe(id);
    // The first read and three more.
    expect(reads).toBe(4);
  });

  it('delivers the exact sequence through 1,000 cuts at seeded random byte offsets, with one POST', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { fetch, requests } = serve();
    const client = createTaskClient({ baseUrl: BASE, fetch, ...DEMO_TOKENS });
    const started = streamToEnd(client, 120);
    await vi.advanceTimersByTimeAsync(5_000);
    const streamed = await started;
    const expected = streamed.positions.map((position, index) => ({
      position,
      event: streamed.events[index],
    }));
    let cuts = 0;
    for (let seed = 1; cuts < 1000; seed++) {
      const random = seededRandom(seed);
      const cutting = createTaskClient({
        baseUrl: BASE,
        ...DEMO_TOKENS,
        fetch: async (request) => {
          const response = await fetch(request);
          // Most reads break within their first few messages; a few run to the end.
          if (random() < 0.05) return response;
          cuts += 1;
          return cutBodyAt(response, Math.floor(random() * 900));
        },
      });
      // The page's own loop: when the client gives up (three reads in a row without a message),
      // it reads on after the last position it has, as a reload would.
      const delivered: Array<{ position: string; event: unknown }> = [];
      const readAll = async () => {
        for (;;) {
          const after = delivered.at(-1)?.position;
          try {
            for await (const message of cutting.events('render-video', streamed.taskId, {
              ...(after === undefined ? {} : { after }),
            })) {
              delivered.push(message);
            }
            return;
          } catch (error) {
            if (!TaskwireError.isInstance(error) || error.code !== 'network') throw error;
          }
        }
      };
      let done = false;
      const reading = readAll().finally(() => {
        done = true;
      });
      while (!done) await vi.advanceTimersByTimeAsync(1000);
      await reading;
      expect(delivered).toEqual(expected);
    }
    expect(cuts).toBeGreaterThanOrEqual(1000);
    expect(requests.filter((request) => request.startsWith('POST'))).toEqual(['POST stream']);
  }, 30_000);
});

describe("the client's resumable reads (internal, for the hooks)", () => {
  it('follows several tasks over one connection, each message with its task and position', async () => {
    const { fetch, requests } = serve();
    const client = createTaskClient({ baseUrl: BASE, fetch, ...DEMO_TOKENS });
    const reads = resumableReadsOf(client)!;
    expect(reads.offered).toBe(false);
    const first = (await client.submit('render-video', { frames: 3, frameMs: 10 })).id;
    expect(reads.offered).toBe(true);
    const second = (await client.submit('echo', { message: 'hi' })).id;
    const messages = [];
    for await (const message of reads.follow([
      { task: 'render-video', id: first, after: null },
      { task: 'echo', id: second, after: null },
      { task: 'echo', id: 'nobody', after: null },
    ]))
      messages.push(message);
    const direct = await collect(client.events('render-video', first));
    expect(
      messages
        .filter((message) => message.id === first)
        .map((message) => ('event' in message ? message.event : undefined)),
    ).toEqual(direct.map((message) => message.event));
    const failed = messages.find((message) => 'error' in message);
    expect(failed && 'error' in failed ? failed.error.reason : undefined).toBe('RESULT_NOT_FOUND');
    expect(requests.filter((request) => request === 'POST events')).toHaveLength(1);
  });

  it('starts a stream with a short request once the service said it offers resumable streams', async () => {
    const { fetch, requests, service } = serve();
    const seen: Array<string | null> = [];
    const client = createTaskClient({
      baseUrl: BASE,
      ...DEMO_TOKENS,
      fetch: (request) => {
        seen.push(request.headers.get('prefer'));
        return fetch(request);
      },
    });
    const reads = resumableReadsOf(client)!;
    // Before any answer said so, no Prefer is sent: the stream answers, and is closed.
    const unknown = await reads.startDetached('echo', { message: 'a' });
    expect(unknown.detached).toBe(false);
    const started = await reads.startDetached(
      'render-video',
      { frames: 2, frameMs: 10 },
      { idempotencyKey: 'key-1' },
    );
    expect(started.detached).toBe(true);
    const again = await reads.startDetached(
      'render-video',
      { frames: 2, frameMs: 10 },
      { idempotencyKey: 'key-1' },
    );
    expect(again.id).toBe(started.id);
    expect(seen).toEqual([null, 'respond-async', 'respond-async']);
    const read = await collect(client.events('render-video', started.id));
    expect(read.at(-1)?.event.type).toBe('task.completed');
    expect(requests.filter((request) => request.startsWith('POST'))).toHaveLength(3);
    void service;
  });
});
