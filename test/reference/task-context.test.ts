import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { findUsageInconsistency } from '../../src/protocol/usage.js';
import { defineTask, type TaskContext } from '../../src/reference/index.js';
import {
  eventsOf,
  post,
  readRecord,
  readStream,
  runToEnd,
  submit,
  waitForEnd,
} from './service-requests.js';
import { openService, openServiceOnFakeClock } from './open-service.js';

/** Runs `body` as the task's run and returns its final record. */
async function runWith(body: (context: TaskContext) => unknown) {
  const task = defineTask({
    name: 'probe',
    params: z.object({}),
    run: async (context) => {
      await body(context);
      return { ok: true };
    },
  });
  const service = openService({ tasks: [task] });
  return runToEnd(service, 'probe', {});
}

describe('usage', () => {
  it('is present with credits 0 when every charge failed', async () => {
    const record = await runWith((context) => {
      context.charge({ toolId: 'gpu', price: 5, amount: 2, failed: true });
    });
    expect(record.usage).toEqual({
      credits: 0,
      details: [{ toolId: 'gpu', price: 5, amount: 2, credits: 10, failed: true }],
    });
    expect(findUsageInconsistency(record.usage!)).toBeUndefined();
  });

  it('adds up charges of one tool at one price, and keeps other prices and outcomes apart', async () => {
    const record = await runWith((context) => {
      context.charge({ toolId: 'a', price: 0.1, amount: 1 });
      context.charge({ toolId: 'a', price: 0.1, amount: 2 });
      context.charge({ toolId: 'a', price: 0.2, amount: 1 });
      context.charge({ toolId: 'a', price: 0.1, amount: 1, failed: true });
      context.charge({ toolId: 'b', price: 0, amount: 3 });
    });
    expect(record.usage?.details).toEqual([
      { toolId: 'a', price: 0.1, amount: 3, credits: 0.1 * 3, failed: false },
      { toolId: 'a', price: 0.2, amount: 1, credits: 0.2, failed: false },
      { toolId: 'a', price: 0.1, amount: 1, credits: 0.1, failed: true },
      { toolId: 'b', price: 0, amount: 3, credits: 0, failed: false },
    ]);
    expect(findUsageInconsistency(record.usage!)).toBeUndefined();
  });

  it('is absent when nothing was charged', async () => {
    const record = await runWith(() => undefined);
    expect(record.usage).toBeUndefined();
  });

  it('fails the task on a charge with a negative or missing figure', async () => {
    for (const charge of [
      { toolId: 'a', price: -1, amount: 1 },
      { toolId: 'a', price: 1, amount: Number.NaN },
      { toolId: '', price: 1, amount: 1 },
    ]) {
      const record = await runWith((context) => context.charge(charge));
      expect(record.result).toMatchObject({ reason: 'TASK_ERROR' });
    }
  });
});

describe('task context', () => {
  it('clamps progress to 0–100 and a negative estimate to 0', async () => {
    const task = defineTask({
      name: 'probe',
      params: z.object({}),
      run: (context) => {
        context.progress(140, -3);
        context.progress(-5, 2);
        return null;
      },
    });
    const service = openService({ tasks: [task] });
    const response = await post(service, '/workflows/probe/stream', { params: {} });
    const events = eventsOf(await readStream(response));
    expect(events.slice(0, 2)).toEqual([
      { type: 'task.progress', percent: 100, estimatedSecondsLeft: 0 },
      { type: 'task.progress', percent: 0, estimatedSecondsLeft: 2 },
    ]);
  });

  it('keeps the event type from being overwritten by a field, and refuses a bad action name', async () => {
    const task = defineTask({
      name: 'probe',
      params: z.object({ action: z.string() }),
      run: (context, { action }) => {
        context.emit(action, { type: 'task.completed', value: 1 });
        return null;
      },
    });
    const service = openService({ tasks: [task] });
    const good = await post(service, '/workflows/probe/stream', { params: { action: 'done' } });
    // The service's uuid of the event comes as `eventId` (docs/protocol.md, "Resumable streams (0.4)").
    expect(eventsOf(await readStream(good))[0]).toEqual({
      type: 'event.done',
      value: 1,
      eventId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    const bad = await post(service, '/workflows/probe/stream', { params: { action: 'a b\n' } });
    const events = eventsOf(await readStream(bad));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'task.failed', result: { reason: 'TASK_ERROR' } });
  });

  it('reports a snapshot: later changes to a reported object do not change the record', async () => {
    const gate: { open?: () => void } = {};
    let reachedGate!: () => void;
    const atGate = new Promise<void>((resolve) => (reachedGate = resolve));
    const task = defineTask({
      name: 'probe',
      params: z.object({}),
      run: async (context) => {
        const partial = { items: ['a'] };
        context.partial(partial);
        partial.items.push('b');
        await new Promise<void>((resolve) => {
          gate.open = resolve;
          reachedGate();
        });
        return null;
      },
    });
    const service = openService({ tasks: [task] });
    const id = await submit(service, 'probe', {});
    await atGate;
    const record = await readRecord(service, 'probe', id);
    expect(record.result).toEqual({ items: ['a'] });
    gate.open?.();
  });

  it('sleeps for the scaled time and wakes early with a rejection when the service closes', async () => {
    let outcome = 'pending';
    // Kept out here: the run ends FAILED by the close, so a result would never be recorded.
    let slept: number | undefined;
    const task = defineTask({
      name: 'probe',
      params: z.object({}),
      run: async (context) => {
        const started = Date.now();
        await context.sleep(1000);
        slept = Date.now() - started;
        try {
          await context.sleep(1_000_000);
          outcome = 'woke';
        } catch (error) {
          outcome = (error as Error).name;
        }
        return null;
      },
    });
    // On the fake clock: the task's time is the service's, counted in simulated milliseconds.
    const service = openServiceOnFakeClock({ tasks: [task], timeScale: 0.01 });
    const id = await submit(service, 'probe', {});
    // 1000 nominal ms at 0.01 is 10 ms: still asleep after 9, awake after 10 (the unscaled 1000 ms
    // would leave `slept` unset until long after).
    await vi.advanceTimersByTimeAsync(9);
    expect(slept).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(slept).toBe(10);
    await service.close();
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toBe('AbortError');
    const record = await waitForEnd(service, 'probe', id);
    expect(record.status).toBe('FAILED');
  });
});
