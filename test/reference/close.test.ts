import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { createReferenceService, defineTask } from '../../src/reference/index.js';
import { eventsOf, post, readRecord, readStream, submit } from './service-requests.js';
import { fakeTimersAndClock } from '../support/fake-clock.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('close', () => {
  it('aborts running tasks, fails them, ends their streams and answers waiting Executes', async () => {
    let aborted = false;
    let started = 0;
    const endless = defineTask({
      name: 'endless',
      params: z.object({}),
      run: async (context) => {
        started += 1;
        context.signal.addEventListener('abort', () => {
          aborted = true;
        });
        for (;;) await context.sleep(1000);
      },
    });
    const service = createReferenceService({ tasks: [endless] });
    const submitted = await submit(service, 'endless', {});
    const stream = await post(service, '/workflows/endless/stream', { params: {} });
    const execute = post(service, '/workflows/endless/execute', { params: {} });
    // All three runs (Submit, Stream, Execute) are under way before the service closes.
    await expect.poll(() => started).toBe(3);

    await service.close();

    expect(aborted).toBe(true);
    const record = await readRecord(service, 'endless', submitted);
    expect(record.status).toBe('FAILED');
    expect(record.result).toMatchObject({ reason: 'TASK_ERROR', statusCode: 500 });
    const events = eventsOf(await readStream(stream));
    expect(events.map((event) => event.type)).toEqual(['task.failed']);
    const executed = await execute;
    expect(executed.status).toBe(200);
    expect(((await executed.json()) as { response: { status: string } }).response.status).toBe(
      'FAILED',
    );
  });

  it('leaves no timer behind', async () => {
    vi.useFakeTimers();
    const service = createReferenceService({ timeScale: 1, limits: { executeTimeoutMs: 20_000 } });
    const before = vi.getTimerCount();
    expect(before).toBe(0);
    await submit(service, 'slow-report', {});
    await submit(service, 'render-video', {});
    const stream = await post(service, '/workflows/render-video/stream', { params: {} });
    const execute = post(service, '/workflows/slow-report/execute', { params: {} });
    await vi.advanceTimersByTimeAsync(2000);
    // Task sleeps, a keep-alive interval and the Execute deadline are pending.
    expect(vi.getTimerCount()).toBeGreaterThanOrEqual(4);

    await service.close();

    expect(vi.getTimerCount()).toBe(0);
    expect((await execute).status).toBe(200);
    await stream.body?.cancel();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('refuses new tasks after close but still answers Get Result and Options', async () => {
    const service = createReferenceService({ timeScale: 0.001 });
    const id = await submit(service, 'echo', { message: 'x' });
    await service.close();
    for (const endpoint of ['submit', 'stream', 'execute']) {
      const response = await post(service, `/workflows/echo/${endpoint}`, {
        params: { message: 'x' },
      });
      expect(response.status, endpoint).toBe(500);
      expect(((await response.json()) as { reason: string }).reason).toBe('INTERNAL');
    }
    expect((await readRecord(service, 'echo', id)).status).toBe('COMPLETED');
    expect(
      (await post(service, '/workflows/generate-images/options', { params: { prompt: 'x' } }))
        .status,
    ).toBe(200);
  });

  it('clears waiting tasks too, so none starts after close', async () => {
    let runs = 0;
    const task = defineTask({
      name: 'counted',
      params: z.object({}),
      run: async (context) => {
        runs += 1;
        await context.sleep(10_000);
        return null;
      },
    });
    fakeTimersAndClock();
    const service = createReferenceService({ tasks: [task], limits: { concurrentTasks: 1 } });
    await submit(service, 'counted', {});
    const waiting = await submit(service, 'counted', {});
    await service.close();
    // Longer than the running task would have taken: its place was never handed on.
    await vi.advanceTimersByTimeAsync(20_000);
    expect(runs).toBe(1);
    expect((await readRecord(service, 'counted', waiting)).status).toBe('FAILED');
  });
});
