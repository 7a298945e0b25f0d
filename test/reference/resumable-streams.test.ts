/**
 * The reference service offers resumable streams natively (docs/protocol.md, "Resumable streams
 * (0.4)"): every task's messages in its own log, positions on every stream message, the events
 * read after a position, the multiplexed read, the short start, and none of it with `events: false`.
 */
import { createParser } from 'eventsource-parser';
import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { defineTask } from '../../src/reference/index.js';
import { memoryEventLog } from '../../src/events/memory-event-log.js';
import {
  AUTH,
  OTHER_AUTH,
  eventsOf,
  get,
  post,
  readRecord,
  readStream,
  submit,
  waitForEnd,
} from './service-requests.js';
import { openService, openServiceOnFakeClock } from './open-service.js';

const POSITION = /^\d{16}$/;

/** GET a task's events read, after `lastEventId` when given. */
function readEvents(
  service: ReturnType<typeof openService>,
  task: string,
  id: string,
  lastEventId?: string,
  headers: Record<string, string> = AUTH,
): Promise<Response> {
  const extra: Record<string, string> =
    lastEventId === undefined ? {} : { 'last-event-id': lastEventId };
  return get(service, `/workflows/${task}/${id}/events`, { ...headers, ...extra });
}

describe('resumable streams of the reference service', () => {
  it('says so on every answer, and gives every stream message its position as the SSE id', async () => {
    const service = openService({ timeScale: 0.001 });
    const response = await post(service, '/workflows/render-video/stream', {
      params: { frames: 5, frameMs: 100 },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-taskwire-resumable')).toBe('1');
    const taskId = response.headers.get('x-task-id')!;
    const stream = await readStream(response);
    const ids = stream.messages.map((message) => message.id);
    for (const id of ids) expect(id).toMatch(POSITION);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    // A custom event's uuid is its eventId, the id Get Result lists for it.
    const events = eventsOf(stream);
    const record = await readRecord(service, 'render-video', taskId);
    expect(events.filter((event) => event.type.startsWith('event.')).map((e) => e.eventId)).toEqual(
      record.events.map((event) => event.id),
    );
    expect(events.at(-1)?.type).toBe('task.completed');
  });

  it('reads a task again after any position: exactly the messages after it', async () => {
    const service = openService({ timeScale: 0.001 });
    const response = await post(service, '/workflows/render-video/stream', {
      params: { frames: 4, frameMs: 50 },
    });
    const second = response.headers.get('x-task-id')!;
    const full = (await readStream(response)).messages.map((m) => ({ id: m.id, data: m.data }));
    expect(full.length).toBeGreaterThan(8);
    // After the final message: 204, nothing more to read.
    const afterFinal = await readEvents(service, 'render-video', second, full.at(-1)!.id);
    expect(afterFinal.status).toBe(204);
    for (let index = 0; index < full.length - 1; index++) {
      const after = full[index]!.id;
      const rest = await readStream(await readEvents(service, 'render-video', second, after));
      expect(rest.messages.map((m) => ({ id: m.id, data: m.data }))).toEqual(full.slice(index + 1));
    }
    const fromTheStart = await readStream(await readEvents(service, 'render-video', second));
    expect(fromTheStart.messages.map((m) => ({ id: m.id, data: m.data }))).toEqual(full);
  });

  it('logs a submitted task too, so that any task can be read from its first message', async () => {
    const service = openService({ timeScale: 0.001 });
    const id = await submit(service, 'render-video', { frames: 3, frameMs: 10 });
    const response = await readEvents(service, 'render-video', id);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const events = eventsOf(await readStream(response));
    expect(events.at(-1)?.type).toBe('task.completed');
    expect(events.filter((event) => event.type === 'task.progress')).toHaveLength(3);
  });

  it("answers another user's task and an unknown id exactly as Get Result answers an unknown id", async () => {
    const service = openService({ timeScale: 0.001 });
    const id = await submit(service, 'echo', { message: 'mine' });
    await waitForEnd(service, 'echo', id);
    const unknownResult = await get(service, '/workflows/echo/nope/result');
    const answers = [
      await readEvents(service, 'echo', id, undefined, OTHER_AUTH),
      await readEvents(service, 'echo', 'nope'),
      await readEvents(service, 'render-video', id),
    ];
    const expected = await unknownResult.json();
    for (const answer of answers) {
      expect(answer.status).toBe(404);
      expect(await answer.json()).toEqual(expected);
    }
    const noTask = await readEvents(service, 'no-such-task', id);
    expect(noTask.status).toBe(404);
    expect(await noTask.json()).toMatchObject({ reason: 'TASK_NOT_FOUND' });
    const badPosition = await readEvents(service, 'echo', id, 'not-a-position');
    expect(badPosition.status).toBe(400);
    expect(await badPosition.json()).toMatchObject({ reason: 'INVALID_HEADER' });
    const noToken = await readEvents(service, 'echo', id, undefined, {});
    expect(noToken.status).toBe(401);
  });

  it('answers 410 EVENTS_EXPIRED for a position older than the log still holds', async () => {
    const service = openService({
      timeScale: 0.001,
      events: memoryEventLog({ maxLogBytes: 200 }),
    });
    const id = await submit(service, 'render-video', { frames: 10, frameMs: 10 });
    await waitForEnd(service, 'render-video', id);
    const answer = await readEvents(service, 'render-video', id);
    expect(answer.status).toBe(410);
    expect(await answer.json()).toEqual({
      status: 'error',
      statusCode: 410,
      reason: 'EVENTS_EXPIRED',
      message: expect.any(String),
    });
  });

  it('follows several tasks over one multiplexed read, and ends when every one has ended', async () => {
    const service = openService({ timeScale: 0.001 });
    const first = await submit(service, 'render-video', { frames: 3, frameMs: 20 });
    const second = await submit(service, 'generate-images', { prompt: 'a', count: 2 });
    const response = await post(service, '/workflows/events', {
      follow: [
        { task: 'render-video', id: first, after: null },
        { task: 'generate-images', id: second, after: null },
        { task: 'echo', id: 'unknown', after: null },
        { task: 'not-served', id: first, after: null },
      ],
    });
    expect(response.status).toBe(200);
    const messages = eventsOf(await readStream(response)) as unknown as Array<{
      task: string;
      id: string;
      position?: string;
      message?: { type: string };
      error?: { reason: string; statusCode: number };
    }>;
    for (const [task, id] of [
      ['render-video', first],
      ['generate-images', second],
    ] as const) {
      const own = messages.filter((message) => message.task === task && message.id === id);
      const positions = own.map((message) => message.position!);
      expect([...positions].sort()).toEqual(positions);
      expect(own.at(-1)?.message?.type).toBe('task.completed');
      const direct = await readStream(await readEvents(service, own[0]!.task, id));
      expect(own.map((message) => message.message)).toEqual(eventsOf(direct));
    }
    // Messages of different tasks come as they happen: their order across tasks is no promise.
    const errors = messages.filter((message) => message.error !== undefined);
    expect(errors.map((message) => [message.task, message.error?.reason]).sort()).toEqual([
      ['echo', 'RESULT_NOT_FOUND'],
      ['not-served', 'RESULT_NOT_FOUND'],
    ]);
  });

  it('refuses a multiplexed read whose body is not 1 to 100 distinct tasks with 422 INVALID_FOLLOW', async () => {
    const service = openService();
    const one = { task: 'echo', id: 'a', after: null };
    const bodies = [
      { follow: [] },
      { follow: Array.from({ length: 101 }, (_, index) => ({ ...one, id: `t${index}` })) },
      { follow: [one, one] },
      { follow: [{ task: 'bad name', id: 'a', after: null }] },
      { follow: [{ task: 'echo', id: 'a' }] },
      { tasks: [one] },
    ];
    for (const body of bodies) {
      const answer = await post(service, '/workflows/events', body);
      expect(answer.status).toBe(422);
      expect(await answer.json()).toMatchObject({ reason: 'INVALID_FOLLOW', statusCode: 422 });
    }
    const notJson = await post(service, '/workflows/events', '{');
    expect(notJson.status).toBe(400);
    const wrongMethod = await get(service, '/workflows/events');
    expect(wrongMethod.status).toBe(405);
  });

  it('starts a stream with a short request under Prefer: respond-async, one task per key', async () => {
    const service = openService({ timeScale: 0.001 });
    const start = () =>
      post(
        service,
        '/workflows/render-video/stream',
        { params: { frames: 2, frameMs: 10 } },
        { ...AUTH, prefer: 'respond-async', 'idempotency-key': 'one-start' },
      );
    const [answer, again] = await Promise.all([start(), start()]);
    expect(answer.status).toBe(202);
    expect(answer.headers.get('preference-applied')).toBe('respond-async');
    expect(answer.headers.get('x-taskwire-resumable')).toBe('1');
    const body = (await answer.json()) as { response: { id: string; status: string } };
    expect(body.response.status).toBe('ACCEPTED');
    expect(answer.headers.get('x-task-id')).toBe(body.response.id);
    expect(answer.headers.get('location')).toBe(
      `/workflows/render-video/${body.response.id}/result`,
    );
    expect(((await again.json()) as typeof body).response.id).toBe(body.response.id);
    const events = eventsOf(
      await readStream(await readEvents(service, 'render-video', body.response.id)),
    );
    expect(events.at(-1)?.type).toBe('task.completed');
    const reused = await post(
      service,
      '/workflows/render-video/stream',
      { params: { frames: 3 } },
      { ...AUTH, prefer: 'respond-async', 'idempotency-key': 'one-start' },
    );
    expect(reused.status).toBe(422);
  });

  it('keeps the silence of a read within the keep-alive period', async () => {
    const quiet = defineTask({
      name: 'quiet',
      params: z.object({}),
      run: async (context) => {
        await context.sleep(70_000);
        return null;
      },
    });
    // At 0.002 a keep-alive period is 30 ms, on the fake clock.
    const service = openServiceOnFakeClock({ tasks: [quiet], timeScale: 0.002 });
    const response = await post(service, '/workflows/quiet/stream', { params: {} });
    const comments: number[] = [];
    const parser = createParser({ onComment: () => comments.push(Date.now()) });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    const started = Date.now();
    const reading = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        parser.feed(decoder.decode(value, { stream: true }));
      }
    })();
    await vi.advanceTimersByTimeAsync(140);
    await reading;
    const gaps = [started, ...comments]
      .slice(1)
      .map((at, index) => at - [started, ...comments][index]!);
    expect(comments.length).toBeGreaterThanOrEqual(4);
    for (const gap of gaps) expect(gap).toBeLessThanOrEqual(30);
  });

  it('serves the protocol as 0.3 did with events: false', async () => {
    const service = openService({ timeScale: 0.001, events: false });
    const id = await submit(service, 'echo', { message: 'x' });
    const events = await readEvents(service, 'echo', id);
    expect(events.status).toBe(404);
    expect(await events.json()).toMatchObject({ reason: 'NOT_FOUND' });
    const follow = await post(service, '/workflows/events', { follow: [] });
    expect(follow.status).toBe(404);
    const stream = await post(
      service,
      '/workflows/echo/stream',
      { params: { message: 'x' } },
      { ...AUTH, prefer: 'respond-async' },
    );
    expect(stream.status).toBe(200);
    expect(stream.headers.get('x-taskwire-resumable')).toBeNull();
    expect((await readStream(stream)).messages.every((message) => message.id === undefined)).toBe(
      true,
    );
  });

  it('lets every open read end with its final message when the service closes', async () => {
    const endless = defineTask({
      name: 'endless',
      params: z.object({}),
      run: async (context) => {
        for (;;) await context.sleep(1000);
      },
    });
    const service = openService({ tasks: [endless] });
    const stream = await post(service, '/workflows/endless/stream', { params: {} });
    const id = stream.headers.get('x-task-id')!;
    const read = await readEvents(service, 'endless', id);
    await service.close();
    expect(eventsOf(await readStream(stream)).map((event) => event.type)).toEqual(['task.failed']);
    expect(eventsOf(await readStream(read)).map((event) => event.type)).toEqual(['task.failed']);
  });
});
