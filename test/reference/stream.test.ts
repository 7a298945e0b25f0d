import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { defineTask } from '../../src/reference/index.js';
import { formatServerSentEvent } from '../../src/events/format-server-sent-event.js';
import {
  AUTH,
  BASE,
  eventsOf,
  post,
  readRecord,
  readStream,
  waitForEnd,
} from './service-requests.js';
import { openService, openServiceOnFakeClock } from './open-service.js';

/** A task that counts runs, charges per step and takes `steps` nominal 100 ms steps. */
function countingTask() {
  const counter = { runs: 0, steps: 0 };
  const task = defineTask({
    name: 'counted',
    params: z.object({ steps: z.number() }),
    run: async (context, { steps }) => {
      counter.runs += 1;
      for (let step = 1; step <= steps; step += 1) {
        await context.sleep(100);
        counter.steps += 1;
        context.progress((step / steps) * 100, 0);
        context.charge({ toolId: 'step', price: 2, amount: 1 });
      }
      return { steps };
    },
  });
  return { task, counter };
}

describe('Stream', () => {
  it('answers an event stream with x-task-id, one data line per message and closes after the final event', async () => {
    // The framing of a service that offers no resumable streams (0.3): test/reference/resumable-streams.test.ts has the other.
    const service = openService({ timeScale: 0.001, events: false });
    const response = await post(service, '/workflows/render-video/stream', {
      params: { frames: 10, frameMs: 100 },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const taskId = response.headers.get('x-task-id');
    expect(taskId).toMatch(/^[0-9a-f-]{36}$/);

    const stream = await readStream(response);
    const events = eventsOf(stream);
    const types = events.map((event) => event.type);
    expect(types.at(-1)).toBe('task.completed');
    expect(types.filter((type) => type === 'task.completed')).toHaveLength(1);
    expect(types.filter((type) => type === 'task.progress')).toHaveLength(10);
    expect(types.filter((type) => type === 'event.frame-rendered')).toHaveLength(10);
    expect(types.filter((type) => type === 'event.thumbnail-ready')).toHaveLength(1);
    expect(types.filter((type) => type === 'task.partial-result')).toHaveLength(1);
    // Every message is exactly `data: <json>` and a blank line, with `id:` only on custom events.
    for (const block of stream.text.split('\n\n').filter((part) => part !== '')) {
      const lines = block.split('\n');
      const dataLines = lines.filter((line) => line.startsWith('data: '));
      if (lines[0]?.startsWith(':')) continue;
      expect(dataLines).toHaveLength(1);
      const event = JSON.parse(dataLines[0]!.slice(6)) as { type: string };
      if (event.type.startsWith('event.')) {
        expect(lines).toHaveLength(2);
        expect(lines[0]).toMatch(/^id: [0-9a-f-]{36}$/);
      } else {
        expect(lines).toHaveLength(1);
      }
    }
    const completed = events.at(-1)!;
    expect(completed.result).toEqual({
      url: `https://files.example.com/videos/${taskId}/video.mp4`,
      frames: 10,
    });
    expect(completed.usage).toEqual({
      credits: 5,
      details: [{ toolId: 'video-render', price: 0.5, amount: 10, credits: 5, failed: false }],
    });

    // The streamed task is a task like any other: Get Result has the same outcome and event ids.
    const record = await readRecord(service, 'render-video', taskId!);
    expect(record.status).toBe('COMPLETED');
    expect(record.result).toEqual(completed.result);
    expect(record.usage).toEqual(completed.usage);
    const streamed = stream.messages
      .filter((message) => message.id !== undefined)
      .map((message) => ({
        type: (JSON.parse(message.data) as { type: string }).type,
        id: message.id,
      }));
    expect(streamed).toHaveLength(11);
    expect(record.events).toEqual(streamed);
  });

  it('ends a failing task with task.failed', async () => {
    const service = openService({ timeScale: 0.001 });
    const response = await post(service, '/workflows/failing-task/stream', { params: {} });
    const events = eventsOf(await readStream(response));
    expect(events.map((event) => event.type)).toEqual(['task.progress', 'task.failed']);
    expect(events.at(-1)?.result).toEqual({
      status: 'error',
      statusCode: 500,
      reason: 'DEMO_FAILURE',
      message: 'The demo task failed on purpose.',
    });
  });

  it('sends a keep-alive comment during silences, scaled by timeScale', async () => {
    const quiet = defineTask({
      name: 'quiet',
      params: z.object({}),
      run: async (context) => {
        // 60 nominal seconds of silence: four 15 s keep-alive periods.
        await context.sleep(60_000);
        return { done: true };
      },
    });
    // At 0.002 a keep-alive period is 30 ms, on the fake clock.
    // 0.3's stream; test/reference/resumable-streams.test.ts checks the keep-alive of a log's read.
    const service = openServiceOnFakeClock({ tasks: [quiet], timeScale: 0.002, events: false });
    const response = await post(service, '/workflows/quiet/stream', { params: {} });
    const comments: string[] = [];
    const parser = createParser({ onComment: (comment) => comments.push(comment.trim()) });
    const decoder = new TextDecoder();
    let text = '';
    const reader = response.body!.getReader();
    const reading = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        const part = decoder.decode(value, { stream: true });
        text += part;
        parser.feed(part);
      }
    })();
    // The comments read in each keep-alive period of the 120 ms (60 nominal seconds) of silence.
    const perPeriod: number[] = [];
    for (let period = 0; period < 4; period += 1) {
      const before = comments.length;
      await vi.advanceTimersByTimeAsync(30);
      perPeriod.push(comments.length - before);
    }
    await reading;
    expect(comments.length).toBeGreaterThanOrEqual(3);
    expect(new Set(comments)).toEqual(new Set(['keep-alive']));
    expect(text).toContain(': keep-alive\n\n');
    // The first comment comes within one keep-alive period, and so does one in every period after.
    expect(perPeriod).toEqual([1, 1, 1, 1]);
  });

  it('writes a value with line breaks as several data lines that a parser joins again', () => {
    const text = formatServerSentEvent('first\nsecond\r\nthird\rfourth', 'abc');
    expect(text).toBe('id: abc\ndata: first\ndata: second\ndata: third\ndata: fourth\n\n');
    const messages: EventSourceMessage[] = [];
    createParser({ onEvent: (message) => messages.push(message) }).feed(text);
    expect(messages).toEqual([
      { id: 'abc', data: 'first\nsecond\nthird\nfourth', event: undefined },
    ]);
    expect(() => formatServerSentEvent('x', 'a\nb')).toThrow(TypeError);
  });

  it('keeps every event intact when a value holds line breaks', async () => {
    const lines = defineTask({
      name: 'lines',
      params: z.object({}),
      run: (context) => {
        context.emit('note', { text: 'one\ntwo\r\nthree\u2028four' });
        return { text: 'a\nb' };
      },
    });
    const service = openService({ tasks: [lines], events: false });
    const response = await post(service, '/workflows/lines/stream', { params: {} });
    const events = eventsOf(await readStream(response));
    expect(events).toEqual([
      { type: 'event.note', text: 'one\ntwo\r\nthree\u2028four' },
      { type: 'task.completed', result: { text: 'a\nb' } },
    ]);
  });

  it('answers refusals before the start as JSON errors, never as an event stream', async () => {
    const service = openService();
    const cases: Array<[string, unknown, Record<string, string>, number]> = [
      ['/workflows/render-video/stream', { params: { frames: 0 } }, AUTH, 422],
      ['/workflows/nope/stream', { params: {} }, AUTH, 404],
      ['/workflows/render-video/stream', { params: {} }, {}, 401],
      ['/workflows/render-video/stream', '[]', AUTH, 400],
    ];
    for (const [path, body, headers, status] of cases) {
      const response = await post(service, path, body, headers);
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(response.headers.get('x-task-id')).toBeNull();
      expect(((await response.json()) as { status: string }).status).toBe('error');
    }
  });

  it('lets the task finish, charged once, when the client cancels the stream', async () => {
    const { task, counter } = countingTask();
    const service = openService({ tasks: [task], timeScale: 0.01 });
    const response = await post(service, '/workflows/counted/stream', { params: { steps: 5 } });
    const taskId = response.headers.get('x-task-id')!;
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('task.progress');
    await reader.cancel();
    const record = await waitForEnd(service, 'counted', taskId);
    expect(record.status).toBe('COMPLETED');
    expect(record.result).toEqual({ steps: 5 });
    expect(counter).toEqual({ runs: 1, steps: 5 });
    expect(record.usage).toEqual({
      credits: 10,
      details: [{ toolId: 'step', price: 2, amount: 5, credits: 10, failed: false }],
    });
  });

  it('lets the task finish when the request is aborted', async () => {
    const { task, counter } = countingTask();
    const service = openService({ tasks: [task], timeScale: 0.01 });
    const controller = new AbortController();
    const response = await service.fetch(
      new Request(`${BASE}/workflows/counted/stream`, {
        method: 'POST',
        headers: { ...AUTH, 'content-type': 'application/json' },
        body: JSON.stringify({ params: { steps: 4 } }),
        signal: controller.signal,
      }),
    );
    const taskId = response.headers.get('x-task-id')!;
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    await expect(
      (async () => {
        for (;;) if ((await reader.read()).done) return 'ended';
      })(),
    ).rejects.toThrow();
    const record = await waitForEnd(service, 'counted', taskId);
    expect(record.status).toBe('COMPLETED');
    expect(counter.runs).toBe(1);
    expect(record.usage?.credits).toBe(8);
  });

  // A resumable stream queues nothing: it reads the task's log only as fast as the client reads.
  it('drops a client that never reads once its queue passes the buffer limit, and the task goes on', async () => {
    const chatty = defineTask({
      name: 'chatty',
      params: z.object({}),
      run: async (context) => {
        for (let index = 0; index < 200; index += 1) {
          context.emit('chunk', { index, padding: 'x'.repeat(1000) });
          if (index % 50 === 0) await context.sleep(1);
        }
        context.charge({ toolId: 'chat', price: 1, amount: 1 });
        return { sent: 200 };
      },
    });
    const service = openService({
      tasks: [chatty],
      limits: { streamBufferBytes: 100_000 },
      events: false,
    });
    const response = await post(service, '/workflows/chatty/stream', { params: {} });
    const taskId = response.headers.get('x-task-id')!;
    // The client reads nothing until the task is over.
    const record = await waitForEnd(service, 'chatty', taskId);
    expect(record).toMatchObject({ status: 'COMPLETED', result: { sent: 200 } });
    expect(record.events).toHaveLength(200);
    expect(record.usage?.credits).toBe(1);
    // The dropped stream reports the drop; erroring it also discarded its queue, freeing the memory.
    const reader = response.body!.getReader();
    let bytes = 0;
    const outcome = await (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return 'closed';
        bytes += value.byteLength;
      }
    })().catch((error: Error) => error.message);
    expect(outcome).toContain('too slowly');
    expect(bytes).toBe(0);
  });

  it('delivers every event to a client that reads slowly but within the limit', async () => {
    const service = openServiceOnFakeClock({ timeScale: 0.001 });
    const response = await post(service, '/workflows/render-video/stream', {
      params: { frames: 50, frameMs: 10 },
    });
    // The client reads nothing for 50 ms of the service's time: every frame is sent meanwhile.
    await vi.advanceTimersByTimeAsync(50);
    const events = eventsOf(await readStream(response));
    expect(events.filter((event) => event.type === 'event.frame-rendered')).toHaveLength(50);
    expect(events.at(-1)?.type).toBe('task.completed');
  });
});
