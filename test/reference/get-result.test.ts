import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { defineTask } from '../../src/reference/index.js';
import {
  AUTH,
  OTHER_AUTH,
  get,
  post,
  readRecord,
  runToEnd,
  submit,
  waitForEnd,
  type RecordBody,
} from './service-requests.js';
import { openService } from './open-service.js';

/** A task whose steps the test releases one by one, so each state can be observed. */
function gatedTask() {
  const gates: Array<() => void> = [];
  let gateReached: (() => void) | undefined;
  const next = () =>
    new Promise<void>((resolve) => {
      gates.push(resolve);
      gateReached?.();
    });
  const task = defineTask({
    name: 'gated',
    params: z.object({}),
    run: async (context) => {
      await next();
      context.progress(40, 3.2);
      context.partial({ step: 1 });
      context.emit('step-done', { step: 1 });
      context.charge({ toolId: 'tool-a', price: 3, amount: 2 });
      await next();
      context.partial({ step: 2 });
      context.emit('step-done', { step: 2 });
      context.charge({ toolId: 'tool-b', price: 1, amount: 4, failed: true });
      await next();
      return { done: true };
    },
  });
  // Waits for the task to reach its next gate (an event, not a sleep), opens it, and lets the step
  // run: a step is synchronous up to the next gate, so one turn of the event loop (no timer) holds
  // it and the service's bookkeeping after it.
  const release = async () => {
    if (gates.length === 0) await new Promise<void>((resolve) => (gateReached = resolve));
    gates.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { task, release };
}

describe('Submit Task', () => {
  it('answers 202 with the envelope, the id and a Location of its result', async () => {
    const service = openService({ timeScale: 0.001 });
    const response = await post(service, '/workflows/echo/submit', { params: { message: 'hi' } });
    expect(response.status).toBe(202);
    const body = (await response.json()) as {
      status: string;
      response: { id: string; status: string };
    };
    expect(body.status).toBe('success');
    expect(body.response.status).toBe('ACCEPTED');
    expect(body.response.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers.get('location')).toBe(`/workflows/echo/${body.response.id}/result`);
    expect(response.headers.get('x-task-id')).toBe(body.response.id);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('gives every task its own id', async () => {
    const service = openService({ timeScale: 0.001 });
    const first = await submit(service, 'echo', { message: 'a' });
    const second = await submit(service, 'echo', { message: 'a' });
    expect(first).not.toBe(second);
  });
});

describe('Get Result', () => {
  it('shows ACCEPTED while the task waits for a free slot', async () => {
    const { task, release } = gatedTask();
    const service = openService({ tasks: [task], limits: { concurrentTasks: 1 } });
    const first = await submit(service, 'gated', {});
    const second = await submit(service, 'gated', {});
    const waiting = await get(service, `/workflows/gated/${second}/result`);
    const record = ((await waiting.json()) as { response: RecordBody }).response;
    expect(record).toEqual({
      id: second,
      status: 'ACCEPTED',
      result: null,
      progress: { percent: 0, estimatedSecondsLeft: 0 },
      events: [],
    });
    expect(waiting.headers.get('retry-after')).toBe('1');
    expect((await readRecord(service, 'gated', first)).status).toBe('IN_PROGRESS');
    for (let step = 0; step < 3; step += 1) await release();
    expect((await readRecord(service, 'gated', first)).status).toBe('COMPLETED');
    expect((await readRecord(service, 'gated', second)).status).toBe('IN_PROGRESS');
    for (let step = 0; step < 3; step += 1) await release();
    expect((await waitForEnd(service, 'gated', second)).status).toBe('COMPLETED');
  });

  it('shows progress, the latest partial result, events and usage while running, then the final result', async () => {
    const { task, release } = gatedTask();
    const service = openService({ tasks: [task] });
    const id = await submit(service, 'gated', {});

    const started = await readRecord(service, 'gated', id);
    expect(started.status).toBe('IN_PROGRESS');
    expect(started.result).toBeNull();
    expect(started.usage).toBeUndefined();

    await release();
    const running = await get(service, `/workflows/gated/${id}/result`);
    // The hint follows estimatedSecondsLeft (3.2 s), in whole seconds.
    expect(running.headers.get('retry-after')).toBe('4');
    const first = ((await running.json()) as { response: RecordBody }).response;
    expect(first.status).toBe('IN_PROGRESS');
    expect(first.progress).toEqual({ percent: 40, estimatedSecondsLeft: 3.2 });
    expect(first.result).toEqual({ step: 1 });
    expect(first.events).toHaveLength(1);
    expect(first.events[0]?.type).toBe('event.step-done');
    expect(first.events[0]?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.usage).toEqual({
      credits: 6,
      details: [{ toolId: 'tool-a', price: 3, amount: 2, credits: 6, failed: false }],
    });

    await release();
    const second = await readRecord(service, 'gated', id);
    expect(second.result).toEqual({ step: 2 });
    expect(second.events.map((event) => event.type)).toEqual([
      'event.step-done',
      'event.step-done',
    ]);
    expect(second.events[0]).toEqual(first.events[0]);
    expect(second.usage).toEqual({
      credits: 6,
      details: [
        { toolId: 'tool-a', price: 3, amount: 2, credits: 6, failed: false },
        { toolId: 'tool-b', price: 1, amount: 4, credits: 4, failed: true },
      ],
    });

    await release();
    const done = await get(service, `/workflows/gated/${id}/result`);
    expect(done.headers.get('retry-after')).toBeNull();
    const final = ((await done.json()) as { response: RecordBody }).response;
    expect(final.status).toBe('COMPLETED');
    expect(final.result).toEqual({ done: true });
    expect(final.progress).toEqual({ percent: 100, estimatedSecondsLeft: 0 });
    expect(final.events).toEqual(second.events);
    expect(final.usage?.credits).toBe(6);
  });

  it('caps the Retry-After hint at 5 seconds', async () => {
    const service = openService({ timeScale: 1 });
    const id = await submit(service, 'slow-report', { seconds: 600 });
    // The first step of slow-report takes a nominal second; progress 0 with 0 s left gives the floor.
    const response = await get(service, `/workflows/slow-report/${id}/result`);
    expect(response.headers.get('retry-after')).toBe('1');
    const long = defineTask({
      name: 'long',
      params: z.object({}),
      run: async (context) => {
        context.progress(1, 3600);
        await context.sleep(60_000);
        return null;
      },
    });
    const longService = openService({ tasks: [long] });
    const longId = await submit(longService, 'long', {});
    // Once it runs, the task has reported its hour left.
    await expect
      .poll(async () => (await readRecord(longService, 'long', longId)).progress.percent)
      .toBe(1);
    const hinted = await get(longService, `/workflows/long/${longId}/result`);
    expect(hinted.headers.get('retry-after')).toBe('5');
  });

  it('shows a failed task with its own reason and status code', async () => {
    const service = openService({ timeScale: 0.001 });
    const record = await runToEnd(service, 'failing-task', { reason: 'OUT_OF_FRAMES' });
    expect(record.status).toBe('FAILED');
    expect(record.result).toEqual({
      status: 'error',
      statusCode: 500,
      reason: 'OUT_OF_FRAMES',
      message: 'The demo task failed on purpose.',
    });
    expect(record.progress.percent).toBe(50);
  });

  it('ends the run at once on ctx.fail, with the given status code', async () => {
    let after = false;
    const task = defineTask({
      name: 'refuses',
      params: z.object({}),
      run: (context) => {
        try {
          context.fail('QUOTA', 'No quota left.', 429);
        } catch {
          // Even code that swallows the signal cannot turn the failure into a success.
        }
        after = true;
        context.partial({ late: true });
        return { late: true };
      },
    });
    const service = openService({ tasks: [task] });
    const record = await runToEnd(service, 'refuses', {});
    expect(record.status).toBe('FAILED');
    expect(record.result).toEqual({
      status: 'error',
      statusCode: 429,
      reason: 'QUOTA',
      message: 'No quota left.',
    });
    expect(after).toBe(true);
  });

  it('turns a run that throws into FAILED TASK_ERROR without the error text or stack', async () => {
    const task = defineTask({
      name: 'throws',
      params: z.object({}),
      run: () => {
        throw new Error('secret database password in /srv/app/db.ts');
      },
    });
    const service = openService({ tasks: [task] });
    const record = await runToEnd(service, 'throws', {});
    expect(record.status).toBe('FAILED');
    const failure = record.result as { statusCode: number; reason: string; message: string };
    expect(failure.statusCode).toBe(500);
    expect(failure.reason).toBe('TASK_ERROR');
    expect(failure.message).not.toMatch(/secret|\/srv|at /);
  });

  it('fails a task whose result breaks its result schema or is no object', async () => {
    const wrongShape = defineTask({
      name: 'wrong-shape',
      params: z.object({}),
      result: z.object({ url: z.string() }),
      run: () => ({ url: 42 }) as unknown as { url: string },
    });
    const notObject = defineTask({
      name: 'not-object',
      params: z.object({}),
      run: () => [1, 2] as unknown as Record<string, unknown>,
    });
    const service = openService({ tasks: [wrongShape, notObject] });
    const first = await runToEnd(service, 'wrong-shape', {});
    expect(first.result).toMatchObject({
      reason: 'TASK_ERROR',
      message: expect.stringContaining('url'),
    });
    const second = await runToEnd(service, 'not-object', {});
    expect(second.result).toMatchObject({ reason: 'TASK_ERROR' });
  });

  it('answers a task that returns nothing with a null result', async () => {
    const task = defineTask({ name: 'quiet', params: z.object({}), run: () => null });
    const service = openService({ tasks: [task] });
    const record = await runToEnd(service, 'quiet', {});
    expect(record).toMatchObject({ status: 'COMPLETED', result: null });
    expect(record.usage).toBeUndefined();
  });

  it('answers another user exactly as for an id that never existed', async () => {
    const service = openService({ timeScale: 0.001 });
    const id = await submit(service, 'echo', { message: 'mine' });
    await waitForEnd(service, 'echo', id);
    const theirs = await get(service, `/workflows/echo/${id}/result`, OTHER_AUTH);
    const unknown = await get(service, `/workflows/echo/${crypto.randomUUID()}/result`, OTHER_AUTH);
    expect(theirs.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(await theirs.json()).toEqual(await unknown.json());
    expect([...theirs.headers].sort()).toEqual([...unknown.headers].sort());
  });

  it('answers RESULT_NOT_FOUND for an id read under another task name, or far too long', async () => {
    const service = openService({ timeScale: 0.001 });
    const id = await submit(service, 'echo', { message: 'x' });
    const otherTask = await get(service, `/workflows/export-data/${id}/result`);
    expect(otherTask.status).toBe(404);
    expect(((await otherTask.json()) as { reason: string }).reason).toBe('RESULT_NOT_FOUND');
    const long = await get(service, `/workflows/echo/${'a'.repeat(5000)}/result`);
    expect(long.status).toBe(404);
    expect(await long.json()).toEqual({
      status: 'error',
      statusCode: 404,
      reason: 'RESULT_NOT_FOUND',
      message: 'No result with that id for this task.',
    });
    const proto = await get(service, '/workflows/echo/__proto__/result');
    expect(proto.status).toBe(404);
  });

  it('answers 410 RESULT_EXPIRED once a finished task is past its retention, and 404 a day later', async () => {
    let now = 1_000_000;
    const service = openService({
      timeScale: 0.001,
      now: () => now,
      limits: { retentionMs: 60_000 },
    });
    const id = await submit(service, 'echo', { message: 'keep' });
    await waitForEnd(service, 'echo', id);
    now += 60_000;
    expect((await get(service, `/workflows/echo/${id}/result`)).status).toBe(200);
    now += 1;
    const expired = await get(service, `/workflows/echo/${id}/result`);
    expect(expired.status).toBe(410);
    expect(((await expired.json()) as { reason: string }).reason).toBe('RESULT_EXPIRED');
    // Another user still learns nothing about the id.
    expect((await get(service, `/workflows/echo/${id}/result`, OTHER_AUTH)).status).toBe(404);
    now += 24 * 60 * 60 * 1000 + 1;
    expect((await get(service, `/workflows/echo/${id}/result`)).status).toBe(404);
  });

  it('keeps a running task past its retention time', async () => {
    let now = 0;
    const service = openService({
      timeScale: 1,
      now: () => now,
      limits: { retentionMs: 10 },
    });
    const id = await submit(service, 'slow-report', {});
    now += 1_000_000;
    expect((await readRecord(service, 'slow-report', id)).status).toBe('IN_PROGRESS');
  });

  it('takes the same headers as every endpoint', async () => {
    const service = openService({ timeScale: 0.001 });
    const id = await submit(service, 'echo', { message: 'x' });
    const unauthenticated = await get(service, `/workflows/echo/${id}/result`, {});
    expect(unauthenticated.status).toBe(401);
    const badHeader = await get(service, `/workflows/echo/${id}/result`, {
      ...AUTH,
      platform: 'web site',
    });
    expect(badHeader.status).toBe(400);
    const fine = await get(service, `/workflows/echo/${id}/result`, {
      ...AUTH,
      platform: 'website',
      'x-touchpoint': 'demo.page_1',
    });
    expect(fine.status).toBe(200);
  });
});
