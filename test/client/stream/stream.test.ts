import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { createTaskClient, TaskwireError, type StreamEvent } from '../../../src/client/index.js';
import { resumableReadsOf } from '../../../src/client/resumable-reads.js';
import { failure } from '../../support/failure.js';
import {
  completed,
  pause,
  sendJson,
  sse,
  startEventStream,
  startRawServer,
  writeApart,
  type RawServer,
} from '../raw-server.js';

let server: RawServer | undefined;

afterEach(async () => {
  vi.useRealTimers();
  await server?.close();
  server = undefined;
});

function clientFor(url: string, extra: { maxEventBytes?: number } = {}) {
  return createTaskClient({
    baseUrl: url,
    userToken: 'user-token',
    clientToken: 'client-token',
    ...extra,
  });
}

/** Collects the events of a stream, and the error it ended with, if any. */
async function collect(stream: AsyncIterable<StreamEvent>) {
  const events: StreamEvent[] = [];
  try {
    for await (const event of stream) events.push(event);
    return { events, error: undefined };
  } catch (error) {
    if (!TaskwireError.isInstance(error)) throw error;
    return { events, error };
  }
}

/** Resolves when the response can take more bytes or has closed, leaving no listener behind. */
function drainedOrClosed(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });
}

const progress = (percent: number) => ({
  type: 'task.progress',
  percent,
  estimatedSecondsLeft: 1,
});

describe('client.stream', () => {
  it('sends one POST with the params and yields every event up to the final one', async () => {
    server = await startRawServer(async (_request, response) => {
      startEventStream(response, 'task-42');
      await writeApart(response, [sse(progress(10)), sse(progress(90)), sse(completed)]);
      response.end();
    });
    const opened: Array<string | undefined> = [];
    const stream = clientFor(server.url).stream(
      'echo',
      { message: 'hi' },
      { onOpen: ({ taskId }) => opened.push(taskId) },
    );
    expect(stream.taskId).toBeUndefined();
    const { events, error } = await collect(stream);
    expect(error).toBeUndefined();
    expect(events).toEqual([progress(10), progress(90), completed]);
    expect(stream.taskId).toBe('task-42');
    expect(opened).toEqual(['task-42']);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.method).toBe('POST');
    expect(server.requests[0]?.url).toBe('/workflows/echo/stream');
    expect(server.requests[0]?.headers['accept']).toBe('text/event-stream');
    expect(JSON.parse(server.requests[0]?.body ?? '')).toEqual({ params: { message: 'hi' } });
  });

  it('sends nothing until it is iterated', async () => {
    server = await startRawServer((_request, response) => sendJson(response, 500, {}));
    clientFor(server.url).stream('echo', {});
    await pause(20);
    expect(server.requests).toHaveLength(0);
  });

  it('ends after the final event and closes the connection even if the server keeps it open', async () => {
    server = await startRawServer(async (_request, response) => {
      startEventStream(response);
      await writeApart(response, [sse(completed), sse(progress(1))]);
      // Never ends: the client must close it.
    });
    const { events, error } = await collect(clientFor(server.url).stream('echo', {}));
    expect(error).toBeUndefined();
    expect(events).toEqual([completed]);
    await server.closed(0);
    expect(server.requests).toHaveLength(1);
  });

  it('fails with network and the task id when the socket is destroyed mid-stream', async () => {
    server = await startRawServer(async (_request, response, incoming) => {
      startEventStream(response, 'task-7');
      await writeApart(response, [sse(progress(30))]);
      incoming.socket.destroy();
    });
    const { events, error } = await collect(clientFor(server.url).stream('echo', {}));
    expect(events).toEqual([progress(30)]);
    expect(error?.code).toBe('network');
    expect(error?.taskId).toBe('task-7');
    expect(error?.retryable).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it('fails with network when the body ends cleanly without a final event', async () => {
    server = await startRawServer(async (_request, response) => {
      startEventStream(response, 'task-8');
      await writeApart(response, [sse(progress(30))]);
      response.end();
    });
    const { events, error } = await collect(clientFor(server.url).stream('echo', {}));
    expect(events).toEqual([progress(30)]);
    expect(error?.code).toBe('network');
    expect(error?.message).toBe('The stream ended before its final event.');
    expect(error?.taskId).toBe('task-8');
    expect(server.requests).toHaveLength(1);
  });

  it('does not count a final event without its blank line at the end of the body', async () => {
    server = await startRawServer(async (_request, response) => {
      startEventStream(response, 'task-9');
      await writeApart(response, [sse(progress(50)), `data: ${JSON.stringify(completed)}\n`]);
      response.end();
    });
    const { events, error } = await collect(clientFor(server.url).stream('echo', {}));
    expect(events).toEqual([progress(50)]);
    expect(error?.code).toBe('network');
    expect(error?.taskId).toBe('task-9');
    expect(server.requests).toHaveLength(1);
  });

  it('fails with protocol and the task id on invalid JSON in an event', async () => {
    server = await startRawServer(async (_request, response) => {
      startEventStream(response, 'task-10');
      await writeApart(response, [sse(progress(1)), 'data: {"type": "task.progress",\n\n']);
    });
    const { events, error } = await collect(clientFor(server.url).stream('echo', {}));
    expect(events).toEqual([progress(1)]);
    expect(error?.code).toBe('protocol');
    expect(error?.message).toContain('not JSON');
    expect(error?.taskId).toBe('task-10');
    await server.closed(0);
    expect(server.requests).toHaveLength(1);
  });

  it('skips keep-alive comments and fails with network when only keep-alives came', async () => {
    server = await startRawServer(async (_request, response) => {
      startEventStream(response, 'task-11');
      await writeApart(response, [': keep-alive\n\n', ': keep-alive\n\n', ':\n\n']);
      response.end();
    });
    const { events, error } = await collect(clientFor(server.url).stream('echo', {}));
    expect(events).toEqual([]);
    expect(error?.code).toBe('network');
    expect(error?.taskId).toBe('task-11');
    expect(server.requests).toHaveLength(1);
  });

  it('passes keep-alives between events without yielding anything for them', async () => {
    server = await startRawServer(async (_request, response) => {
      startEventStream(response);
      await writeApart(response, [
        ': keep-alive\n\n',
        sse(progress(5)),
        ': keep-alive\n\n',
        sse(completed),
      ]);
      response.end();
    });
    const { events } = await collect(clientFor(server.url).stream('echo', {}));
    expect(events).toEqual([progress(5), completed]);
  });

  it('strips one leading BOM, even split across chunks', async () => {
    server = await startRawServer(async (_request, response) => {
      startEventStream(response);
      const bom = new Uint8Array([0xef, 0xbb, 0xbf]);
      await writeApart(response, [
        bom.subarray(0, 1),
        bom.subarray(1),
        sse(progress(3)),
        sse(completed),
      ]);
      response.end();
    });
    const { events, error } = await collect(clientFor(server.url).stream('echo', {}));
    expect(error).toBeUndefined();
    expect(events).toEqual([progress(3), completed]);
  });

  it('reads CR-only line ends split across chunks', async () => {
    server = await startRawServer(async (_request, response) => {
      startEventStream(response);
      const first = `data: ${JSON.stringify(progress(20))}`;
      await writeApart(response, [
        first.slice(0, 9),
        `${first.slice(9)}\r`,
        '\r',
        `data: ${JSON.stringify(completed)}\r\r`,
      ]);
      response.end();
    });
    const { events, error } = await collect(clientFor(server.url).stream('echo', {}));
    expect(error).toBeUndefined();
    expect(events).toEqual([progress(20), completed]);
  });

  it('reads CRLF line ends with the CR and the LF in different chunks', async () => {
    server = await startRawServer(async (_request, response) => {
      startEventStream(response);
      await writeApart(response, [
        `id: e-1\r`,
        `\ndata: ${JSON.stringify({ type: 'event.thumbnail-ready', url: 'https://x.test/1' })}\r`,
        '\n\r',
        `\ndata: ${JSON.stringify(completed)}\r\n\r\n`,
      ]);
      response.end();
    });
    const { events, error } = await collect(clientFor(server.url).stream('echo', {}));
    expect(error).toBeUndefined();
    expect(events).toEqual([
      { type: 'event.thumbnail-ready', url: 'https://x.test/1', eventId: 'e-1' },
      completed,
    ]);
  });

  it('decodes a UTF-8 character split across chunks', async () => {
    server = await startRawServer(async (_request, response) => {
      startEventStream(response);
      const bytes = new TextEncoder().encode(
        sse({ type: 'event.caption', text: 'crème 😀 brûlée' }),
      );
      const emoji = bytes.indexOf(0xf0);
      await writeApart(response, [
        bytes.subarray(0, emoji + 2),
        bytes.subarray(emoji + 2),
        sse(completed),
      ]);
      response.end();
    });
    const { events, error } = await collect(clientFor(server.url).stream('echo', {}));
    expect(error).toBeUndefined();
    expect(events).toEqual([{ type: 'event.caption', text: 'crème 😀 brûlée' }, completed]);
  });

  it('passes unknown task.* and event.* types through, with the SSE id as eventId', async () => {
    server = await startRawServer(async (_request, response) => {
      startEventStream(response);
      await writeApart(response, [
        sse({ type: 'task.heartbeat', at: 1 }),
        sse({ type: 'event.frame-rendered', frame: 3 }, '0b7c1c52-1111-4111-8111-111111111111'),
        sse(completed),
      ]);
      response.end();
    });
    const { events, error } = await collect(clientFor(server.url).stream('render-video', {}));
    expect(error).toBeUndefined();
    expect(events).toEqual([
      { type: 'task.heartbeat', at: 1 },
      { type: 'event.frame-rendered', frame: 3, eventId: '0b7c1c52-1111-4111-8111-111111111111' },
      completed,
    ]);
  });

  it('fails with protocol naming the field when a known type has a wrong shape', async () => {
    server = await startRawServer(async (_request, response) => {
      startEventStream(response, 'task-12');
      await writeApart(response, [
        sse({ type: 'task.progress', percent: '50', estimatedSecondsLeft: 1 }),
      ]);
    });
    const { events, error } = await collect(clientFor(server.url).stream('echo', {}));
    expect(events).toEqual([]);
    expect(error?.code).toBe('protocol');
    expect(error?.message).toMatch(
      /^The stream event 'task.progress' breaks the contract: percent: /,
    );
    expect(error?.taskId).toBe('task-12');
    expect(server.requests).toHaveLength(1);
  });

  it('drops unknown fields of a progress event and refuses a number JSON cannot hold', async () => {
    server = await startRawServer(async (_request, response) => {
      startEventStream(response, 'task-18');
      await writeApart(response, [
        sse({ ...progress(40), extra: 'dropped' }),
        'data: {"type":"task.progress","percent":1e999,"estimatedSecondsLeft":1}\n\n',
      ]);
    });
    const { events, error } = await collect(clientFor(server.url).stream('echo', {}));
    expect(events).toEqual([progress(40)]);
    expect(Object.keys(events[0] ?? {})).toEqual(['type', 'percent', 'estimatedSecondsLeft']);
    expect(error?.code).toBe('protocol');
    expect(error?.message).toMatch(/'task.progress' breaks the contract: percent: /);
  });

  it('gives the same progress event for every spelling of its JSON', async () => {
    server = await startRawServer(async (_request, response) => {
      startEventStream(response);
      await writeApart(response, [
        'data: {"type":"task.progress","percent":-0,"estimatedSecondsLeft":1.5e3}\n\n',
        'data: { "estimatedSecondsLeft" : 1500, "extra": [1], "percent": 0, "type": "task.progress" }\n\n',
        'data: {"type":"task.progress","percent":0,\ndata: "estimatedSecondsLeft":1500}\n\n',
        sse(completed),
      ]);
      response.end();
    });
    const { events, error } = await collect(clientFor(server.url).stream('echo', {}));
    expect(error).toBeUndefined();
    expect(events).toHaveLength(4);
    expect(events.slice(0, 3)).toEqual([
      { type: 'task.progress', percent: -0, estimatedSecondsLeft: 1500 },
      { type: 'task.progress', percent: 0, estimatedSecondsLeft: 1500 },
      { type: 'task.progress', percent: 0, estimatedSecondsLeft: 1500 },
    ]);
    for (const event of events.slice(0, 3)) {
      expect(Object.keys(event)).toEqual(['type', 'percent', 'estimatedSecondsLeft']);
    }
  });

  it('keeps a partial result as sent, drops unknown fields of the event and a __proto__ member', async () => {
    server = await startRawServer(async (_request, response) => {
      startEventStream(response);
      await writeApart(response, [
        sse(
          { type: 'task.partial-result', result: { url: 'https://x.test/1', n: [1] }, extra: 1 },
          'e-1',
        ),
        'data: {"type":"task.partial-result","result":{"__proto__":{"polluted":true},"a":1}}\n\n',
        sse(completed),
      ]);
      response.end();
    });
    const { events, error } = await collect(clientFor(server.url).stream('echo', {}));
    expect(error).toBeUndefined();
    expect(events[0]).toEqual({
      type: 'task.partial-result',
      result: { url: 'https://x.test/1', n: [1] },
    });
    expect(Object.keys(events[0] ?? {})).toEqual(['type', 'result']);
    const guarded = (events[1] as { result: Record<string, unknown> }).result;
    expect(Object.keys(guarded)).toEqual(['a']);
    expect(Object.getPrototypeOf(guarded)).toBe(Object.prototype);
    expect(guarded.polluted).toBeUndefined();
  });

  it('fails with protocol naming result when a partial result is not an object', async () => {
    server = await startRawServer(async (_request, response) => {
      startEventStream(response, 'task-19');
      await writeApart(response, [sse({ type: 'task.partial-result', result: [{ a: 1 }] })]);
    });
    const { events, error } = await collect(clientFor(server.url).stream('echo', {}));
    expect(events).toEqual([]);
    expect(error?.code).toBe('protocol');
    expect(error?.message).toMatch(
      /^The stream event 'task.partial-result' breaks the contract: result/,
    );
    expect(error?.taskId).toBe('task-19');
  });

  it('checks partial results and custom events with the own schemas of the task', async () => {
    const tasks = {
      render: {
        params: z.object({}),
        result: z.object({ url: z.string() }),
        events: z.object({ type: z.literal('event.frame'), frame: z.number() }),
      },
    };
    const wire = [
      sse({ type: 'task.partial-result', result: { url: 'https://x.test/1', size: 2 } }),
      sse({ type: 'event.frame', frame: 1, extra: true }, 'e-1'),
      sse({ type: 'task.partial-result', result: { url: 1 } }),
    ];
    server = await startRawServer(async (_request, response) => {
      startEventStream(response, 'task-20');
      await writeApart(response, wire);
    });
    const client = createTaskClient({
      baseUrl: server.url,
      userToken: 'user-token',
      clientToken: 'client-token',
      tasks,
    });
    const { events, error } = await collect(
      client.stream('render', {}) as AsyncIterable<StreamEvent>,
    );
    expect(events).toEqual([
      { type: 'task.partial-result', result: { url: 'https://x.test/1' } },
      { type: 'event.frame', frame: 1, eventId: 'e-1' },
    ]);
    expect(error?.code).toBe('protocol');
    expect(error?.message).toMatch(/'task.partial-result' breaks the contract: result.url: /);
    expect(error?.taskId).toBe('task-20');
  });

  it('fails with protocol when a final event carries usage that does not add up', async () => {
    server = await startRawServer(async (_request, response) => {
      startEventStream(response, 'task-13');
      const usage = {
        credits: 5,
        details: [{ toolId: 'a', price: 2, amount: 1, credits: 2, failed: false }],
      };
      await writeApart(response, [sse({ type: 'task.completed', result: null, usage })]);
    });
    const { error } = await collect(clientFor(server.url).stream('echo', {}));
    expect(error?.code).toBe('protocol');
    expect(error?.message).toContain('usage.credits');
  });

  it('fails with protocol on an event type that is neither task.* nor event.*', async () => {
    server = await startRawServer(async (_request, response) => {
      startEventStream(response);
      await writeApart(response, [sse({ type: 'progress' })]);
    });
    const { error } = await collect(clientFor(server.url).stream('echo', {}));
    expect(error?.code).toBe('protocol');
    expect(error?.message).toContain('type');
  });

  it('accepts a 10 MB event under the default cap', async () => {
    const blob = 'x'.repeat(10 * 1024 * 1024);
    server = await startRawServer(async (_request, response) => {
      startEventStream(response);
      response.write(sse({ type: 'event.big', blob }));
      response.end(sse(completed));
    });
    const { events, error } = await collect(clientFor(server.url).stream('echo', {}));
    expect(error).toBeUndefined();
    expect(events).toHaveLength(2);
    expect((events[0] as unknown as { blob: string }).blob.length).toBe(blob.length);
  });

  it('refuses a 10 MB event with protocol under a 1 MiB cap', async () => {
    server = await startRawServer(async (_request, response) => {
      startEventStream(response, 'task-14');
      response.write(sse({ type: 'event.big', blob: 'x'.repeat(10 * 1024 * 1024) }));
      response.end(sse(completed));
    });
    const { events, error } = await collect(
      clientFor(server.url, { maxEventBytes: 1024 * 1024 }).stream('echo', {}),
    );
    expect(events).toEqual([]);
    expect(error?.code).toBe('protocol');
    expect(error?.message).toContain('larger than 1048576 bytes');
    expect(error?.taskId).toBe('task-14');
    expect(server.requests).toHaveLength(1);
  });

  it('refuses an endless event line before it is all in memory, and closes the connection', async () => {
    let sent = 0;
    server = await startRawServer(async (_request, response) => {
      startEventStream(response);
      response.write('data: "');
      const piece = 'y'.repeat(64 * 1024);
      // Up to 256 MiB unless the client hangs up first; it must hang up near its 1 MiB cap.
      while (sent < 256 * 1024 * 1024 && !response.destroyed) {
        sent += piece.length;
        if (!response.write(piece)) await drainedOrClosed(response);
      }
    });
    const { error } = await collect(
      clientFor(server.url, { maxEventBytes: 1024 * 1024 }).stream('echo', {}),
    );
    expect(error?.code).toBe('protocol');
    await server.closed(0);
    expect(sent).toBeLessThan(32 * 1024 * 1024);
  });

  it('reads a stream of 100,000 events', async () => {
    server = await startRawServer(async (_request, response) => {
      startEventStream(response);
      let batch = '';
      for (let index = 1; index <= 100_000; index++) {
        batch += `data: {"type":"task.progress","percent":${index % 100},"estimatedSecondsLeft":${index}}\n\n`;
        if (index % 1000 === 0) {
          if (!response.write(batch))
            await new Promise((resolve) => response.once('drain', resolve));
          batch = '';
        }
      }
      response.end(sse(completed));
    });
    let count = 0;
    let sum = 0;
    for await (const event of clientFor(server.url).stream('echo', {})) {
      count++;
      if (event.type === 'task.progress')
        sum += (event as { estimatedSecondsLeft: number }).estimatedSecondsLeft;
    }
    expect(count).toBe(100_001);
    expect(sum).toBe((100_000 * 100_001) / 2);
    expect(server.requests).toHaveLength(1);
  });

  it('rejects with aborted and closes the connection when aborted mid-stream', async () => {
    server = await startRawServer(async (_request, response) => {
      startEventStream(response, 'task-15');
      await writeApart(response, [sse(progress(10))]);
    });
    const controller = new AbortController();
    const events: StreamEvent[] = [];
    const outcome = (async () => {
      for await (const event of clientFor(server!.url).stream(
        'echo',
        {},
        { signal: controller.signal },
      )) {
        events.push(event);
        controller.abort();
      }
    })();
    const error = await outcome.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(TaskwireError.isInstance(error) && error.code).toBe('aborted');
    expect(TaskwireError.isInstance(error) && error.taskId).toBe('task-15');
    expect(events).toEqual([progress(10)]);
    await server.closed(0);
    expect(server.requests).toHaveLength(1);
  });

  it('rejects with aborted while waiting for the next chunk', async () => {
    server = await startRawServer(async (_request, response) => {
      startEventStream(response, 'task-16');
      await writeApart(response, [sse(progress(10))]);
    });
    const controller = new AbortController();
    const stream = clientFor(server.url).stream('echo', {}, { signal: controller.signal });
    const iterator = stream[Symbol.asyncIterator]();
    expect(await iterator.next()).toEqual({ value: progress(10), done: false });
    const waiting = iterator.next();
    setTimeout(() => controller.abort(), 10);
    await expect(waiting).rejects.toMatchObject({ code: 'aborted', taskId: 'task-16' });
    await server.closed(0);
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
  });

  it('sends nothing for an already-aborted signal and rejects the first next()', async () => {
    server = await startRawServer((_request, response) => sendJson(response, 500, {}));
    const controller = new AbortController();
    controller.abort();
    const stream = clientFor(server.url).stream('echo', {}, { signal: controller.signal });
    await expect(stream[Symbol.asyncIterator]().next()).rejects.toMatchObject({ code: 'aborted' });
    expect(server.requests).toHaveLength(0);
  });

  it('closes the connection when the consumer breaks out early', async () => {
    server = await startRawServer(async (_request, response) => {
      startEventStream(response);
      await writeApart(response, [sse(progress(1)), sse(progress(2))]);
    });
    const events: StreamEvent[] = [];
    for await (const event of clientFor(server.url).stream('echo', {})) {
      events.push(event);
      break;
    }
    expect(events).toEqual([progress(1)]);
    await server.closed(0);
    expect(server.requests).toHaveLength(1);
  });

  it('rejects the first next(), never throws, for a task name that breaks the contract', async () => {
    server = await startRawServer((_request, response) => sendJson(response, 500, {}));
    const stream = clientFor(server.url).stream('../admin', {});
    await expect(stream[Symbol.asyncIterator]().next()).rejects.toMatchObject({
      code: 'protocol',
      reason: 'INVALID_TASK_NAME',
    });
    expect(server.requests).toHaveLength(0);
  });

  it('fails with http and the error body when the service refuses the stream', async () => {
    server = await startRawServer((_request, response) =>
      sendJson(response, 422, {
        status: 'error',
        statusCode: 422,
        reason: 'INVALID_PARAMS',
        message: 'message: expected string',
      }),
    );
    const { error } = await collect(clientFor(server.url).stream('echo', {}));
    expect(error?.code).toBe('http');
    expect(error?.status).toBe(422);
    expect(error?.reason).toBe('INVALID_PARAMS');
    expect(error?.retryable).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  it('refreshes once after a 401 and opens the stream with the new token', async () => {
    let token = 'stale';
    server = await startRawServer(async (request, response) => {
      if (request.headers['authorization'] !== 'Bearer fresh') {
        sendJson(response, 401, {
          status: 'error',
          statusCode: 401,
          reason: 'UNAUTHENTICATED',
          message: 'Unknown token.',
        });
        return;
      }
      startEventStream(response);
      await writeApart(response, [sse(completed)]);
      response.end();
    });
    const client = createTaskClient({
      baseUrl: server.url,
      userToken: () => token,
      clientToken: 'c',
      onUnauthorized: () => {
        token = 'fresh';
      },
    });
    const { events, error } = await collect(client.stream('echo', {}));
    expect(error).toBeUndefined();
    expect(events).toEqual([completed]);
    expect(server.requests).toHaveLength(2);
  });

  it('fails with protocol on an x-task-id that is no task id, which Get Result could not read', async () => {
    for (const taskId of ['..', '.']) {
      server = await startRawServer(async (_request, response) => {
        startEventStream(response, taskId);
        await writeApart(response, [sse(completed)]);
        response.end();
      });
      const { events, error } = await collect(clientFor(server.url).stream('echo', {}));
      expect(events).toEqual([]);
      expect(error).toMatchObject({ code: 'protocol' });
      expect(error?.message).toContain('x-task-id');
      await server.close();
    }
    server = undefined;
  });

  it('fails with protocol on a 200 text/html answer', async () => {
    server = await startRawServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html', 'x-task-id': 'task-17' });
      response.end('<!doctype html><title>app</title>');
    });
    const { error } = await collect(clientFor(server.url).stream('echo', {}));
    expect(error?.code).toBe('protocol');
    expect(error?.message).toContain('text/html');
    expect(error?.taskId).toBe('task-17');
    expect(server.requests).toHaveLength(1);
  });
});

describe('the short start', () => {
  it('refuses a stream answer whose x-task-id is empty or no task id, as the stream does', async () => {
    for (const taskId of ['', '..']) {
      server = await startRawServer(async (_request, response) => {
        startEventStream(response, taskId);
        await writeApart(response, [sse(completed)]);
        response.end();
      });
      const reads = resumableReadsOf(clientFor(server.url))!;
      const error = await failure(reads.startDetached('echo', {}));
      expect([taskId, error.code, error.message]).toEqual([
        taskId,
        'protocol',
        expect.stringContaining('x-task-id'),
      ]);
      await server.close();
    }
    server = undefined;
  });
});

describe('client.stream idle watchdog', () => {
  function idleClient(url: string) {
    return createTaskClient({
      baseUrl: url,
      userToken: 'user-token',
      clientToken: 'client-token',
      streamIdleTimeoutMs: 150,
    });
  }

  it('closes a stream that goes silent and reports a break with the task id', async () => {
    server = await startRawServer(async (_request, response) => {
      startEventStream(response, 'task-silent');
      await writeApart(response, [sse(progress(30))]);
      // …then nothing at all, not even a keep-alive.
    });
    const started = Date.now();
    const { events, error } = await collect(idleClient(server.url).stream('echo', {}));
    expect(events).toEqual([progress(30)]);
    expect(error).toMatchObject({ code: 'network', taskId: 'task-silent', retryable: true });
    expect(error?.message).toContain('received nothing for 150 ms');
    expect(Date.now() - started).toBeLessThan(3000);
    await server.closed(0);
  });

  it('counts keep-alive comments as life', async () => {
    // On the fake clock: six keep-alives 60 ms of simulated time apart, 360 ms in all, each read by
    // the client before the clock moves on, so only they can keep the 150 ms watchdog quiet.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    server = await startRawServer(async (_request, response) => {
      startEventStream(response, 'task-slow');
      for (let index = 0; index < 6; index += 1) {
        response.write(': keep-alive\n\n');
        await pause(60);
      }
      response.end(sse(completed));
    });
    let chunks = 0;
    const client = createTaskClient({
      baseUrl: server.url,
      userToken: 'user-token',
      clientToken: 'client-token',
      streamIdleTimeoutMs: 150,
      fetch: async (request) => {
        const answer = await fetch(request);
        const counted = new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            chunks += 1;
            controller.enqueue(chunk);
          },
        });
        return new Response(answer.body?.pipeThrough(counted), answer);
      },
    });
    let ended = false;
    const outcome = collect(client.stream('echo', {})).finally(() => (ended = true));
    for (let keepAlive = 1; keepAlive <= 6 && !ended; keepAlive += 1) {
      // Not vi.waitFor: on fake timers it moves the clock itself. Real turns, until the bytes come
      // (or the stream ends, as a watchdog that fired would end it).
      while (chunks < keepAlive && !ended) await new Promise((resolve) => setImmediate(resolve));
      await vi.advanceTimersByTimeAsync(60);
    }
    const { events, error } = await outcome;
    expect(error).toBeUndefined();
    expect(events).toEqual([completed]);
  });

  it('does not count the time the caller holds an event as silence', async () => {
    // On the fake clock: the caller holds the first event for three watchdog periods of simulated
    // time, so a watchdog left running through the hold would fire for sure, without a real wait.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let sent = () => {};
    const allSent = new Promise<void>((resolve) => (sent = resolve));
    server = await startRawServer(async (_request, response) => {
      startEventStream(response, 'task-held');
      response.write(sse(progress(30)));
      await released;
      response.end(sse(completed), sent);
    });
    const stream = idleClient(server.url).stream('echo', {})[Symbol.asyncIterator]();
    expect(await stream.next()).toEqual({ value: progress(30), done: false });
    // The rest leaves the service, in a chunk of its own, while the caller still holds the event.
    release();
    await allSent;
    await vi.advanceTimersByTimeAsync(3 * 150);
    expect(await stream.next()).toEqual({ value: completed, done: false });
    expect(await stream.next()).toEqual({ value: undefined, done: true });
  });

  it('reads what came in while its own thread was busy before calling the stream silent', async () => {
    server = await startRawServer(async (_request, response) => {
      startEventStream(response, 'task-busy');
      await pause(50);
      response.write(': keep-alive\n\n');
      // The whole process (client included) is blocked for twice the watchdog period right after
      // the keep-alive went out: when it runs again, the due watchdog comes before the bytes.
      const until = Date.now() + 300;
      while (Date.now() < until);
      await pause(50);
      response.end(sse(completed));
    });
    const { events, error } = await collect(idleClient(server.url).stream('echo', {}));
    expect(error).toBeUndefined();
    expect(events).toEqual([completed]);
  });

  it('gives the events read the same watchdog: what came in while the thread was busy is read, not resumed', async () => {
    server = await startRawServer(async (_request, response) => {
      startEventStream(response, 'task-busy');
      await pause(50);
      response.write(': keep-alive\n\n');
      // Blocked for twice the watchdog period right after the keep-alive went out, as above.
      const until = Date.now() + 300;
      while (Date.now() < until);
      await pause(50);
      response.end(`id: 0000000000000001\n${sse(completed)}`);
    });
    const read: unknown[] = [];
    for await (const message of idleClient(server.url).events('echo', 'task-busy'))
      read.push(message.event);
    expect(read).toEqual([completed]);
    // A read called silent would have been opened again.
    expect(server.requests).toHaveLength(1);
  });

  it('gives up on a service that never answers the POST, without a task id', async () => {
    server = await startRawServer(() => undefined);
    const { error } = await collect(idleClient(server.url).stream('echo', {}));
    expect(error).toMatchObject({ code: 'network', taskId: undefined });
    expect(error?.message).toContain('received nothing for 150 ms');
  });
});
