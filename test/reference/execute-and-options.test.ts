import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { defineTask } from '../../src/reference/index.js';
import { post, readRecord } from './service-requests.js';
import { openService, openServiceOnFakeClock } from './open-service.js';
import { settleOnFakeClock } from '../support/fake-clock.js';

describe('Execute', () => {
  it('answers 200 with the completed record and its usage', async () => {
    const service = openService({ timeScale: 0.001 });
    const response = await post(service, '/workflows/generate-images/execute', {
      params: { prompt: 'a cat', count: 2 },
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      status: string;
      response: { id: string; status: string; result: unknown; usage: unknown };
    };
    expect(body.status).toBe('success');
    expect(Object.keys(body.response).sort()).toEqual(['id', 'result', 'status', 'usage']);
    expect(body.response.status).toBe('COMPLETED');
    expect(response.headers.get('x-task-id')).toBe(body.response.id);
    expect(body.response.result).toEqual({
      images: [1, 2].map(
        (index) => `https://files.example.com/images/${body.response.id}/${index}.png`,
      ),
    });
    expect(body.response.usage).toEqual({
      credits: 5,
      details: [
        { toolId: 'image-gen', price: 2, amount: 2, credits: 4, failed: false },
        { toolId: 'upscale', price: 0.5, amount: 2, credits: 1, failed: false },
        { toolId: 'safety-check', price: 1, amount: 1, credits: 1, failed: true },
      ],
    });
  });

  it('answers 200 FAILED for a task that failed, and leaves out usage when nothing was charged', async () => {
    const service = openService({ timeScale: 0.001 });
    const response = await post(service, '/workflows/failing-task/execute', { params: {} });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { response: Record<string, unknown> };
    expect(body.response).toEqual({
      id: expect.any(String),
      status: 'FAILED',
      result: {
        status: 'error',
        statusCode: 500,
        reason: 'DEMO_FAILURE',
        message: 'The demo task failed on purpose.',
      },
    });
  });

  it('answers 504 EXECUTE_TIMEOUT with the task id past the limit, and the task goes on', async () => {
    // On the fake clock: the limit and the task's time are the service's, in simulated ms.
    const service = openServiceOnFakeClock({ timeScale: 0.01, limits: { executeTimeoutMs: 50 } });
    // 30 nominal seconds at 0.01 is 300 ms: far past the 50 ms limit.
    const started = Date.now();
    const response = await settleOnFakeClock(
      post(service, '/workflows/slow-report/execute', { params: {} }),
      { inFlight: () => undefined },
      'the Execute',
      { stepMs: 5, maxMs: 1000 },
    );
    const waited = Date.now() - started;
    expect(response.status).toBe(504);
    const body = (await response.json()) as { status: string; reason: string; taskId: string };
    expect(body).toMatchObject({ status: 'error', statusCode: 504, reason: 'EXECUTE_TIMEOUT' });
    expect(body.taskId).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers.get('x-task-id')).toBe(body.taskId);
    // Answered at the limit, not before it and not at the task's end.
    expect(waited).toBeGreaterThanOrEqual(50);
    expect(waited).toBeLessThan(300);
    expect((await readRecord(service, 'slow-report', body.taskId)).status).toBe('IN_PROGRESS');
    // The rest of the task's 300 ms.
    await vi.advanceTimersByTimeAsync(300);
    const record = await readRecord(service, 'slow-report', body.taskId);
    expect(record.status).toBe('COMPLETED');
    expect(record.result).toEqual({
      url: `https://files.example.com/reports/${body.taskId}.pdf`,
      seconds: 30,
    });
  });

  it('defaults to a 20 second limit', async () => {
    const service = openService({ timeScale: 0.0005 });
    // 30 nominal seconds at 0.0005 is 15 ms: far within 20 real seconds.
    const response = await post(service, '/workflows/slow-report/execute', { params: {} });
    expect(response.status).toBe(200);
  });
});

describe('Options', () => {
  it('answers the preflight options() for a task registered with enablePreflight', async () => {
    const service = openService();
    const response = await post(service, '/workflows/translate-text/options', {
      params: { text: 'x'.repeat(250), targetLanguage: 'fr' },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'success',
      response: { monetization: { toolId: 'translate' }, usageAmount: 3, credits: 3 },
    });
  });

  it('answers the static monetization with usageAmount defaulting to 1', async () => {
    const service = openService();
    const response = await post(service, '/workflows/export-data/options', {
      params: { format: 'json' },
    });
    expect(await response.json()).toEqual({
      status: 'success',
      response: { monetization: { toolId: 'export' }, usageAmount: 1, credits: 1 },
    });
    const withAmount = defineTask({
      name: 'priced',
      params: z.object({}),
      monetization: { toolId: 'tool', price: 1.5, usageAmount: 4 },
      run: () => null,
    });
    const pricedService = openService({ tasks: [withAmount] });
    const priced = await post(pricedService, '/workflows/priced/options', { params: {} });
    expect(((await priced.json()) as { response: unknown }).response).toEqual({
      monetization: { toolId: 'tool' },
      usageAmount: 4,
      credits: 6,
    });
  });

  it('answers {} for a task with no monetization', async () => {
    const service = openService();
    const response = await post(service, '/workflows/echo/options', { params: { message: 'x' } });
    expect(await response.json()).toEqual({ status: 'success', response: {} });
  });

  it('ignores options() unless enablePreflight is set, and never runs or charges the task', async () => {
    let runs = 0;
    let preflights = 0;
    const task = defineTask({
      name: 'priced',
      params: z.object({ size: z.number() }),
      monetization: { toolId: 'static', price: 3 },
      options: ({ size }) => {
        preflights += 1;
        return { monetization: { toolId: 'dynamic' }, usageAmount: size, credits: size };
      },
      run: (context) => {
        runs += 1;
        context.charge({ toolId: 'static', price: 3, amount: 1 });
        return null;
      },
    });
    const service = openService({ tasks: [task] });
    const response = await post(service, '/workflows/priced/options', { params: { size: 9 } });
    expect(((await response.json()) as { response: unknown }).response).toEqual({
      monetization: { toolId: 'static' },
      usageAmount: 1,
      credits: 3,
    });
    expect(runs).toBe(0);
    expect(preflights).toBe(0);
  });

  it('checks params like the other endpoints', async () => {
    const service = openService();
    const response = await post(service, '/workflows/translate-text/options', {
      params: { text: 'hello', targetLanguage: 'French' },
    });
    expect(response.status).toBe(422);
  });

  it('answers 500 INTERNAL when a preflight answers something that is no options result', async () => {
    const task = defineTask({
      name: 'bad-preflight',
      params: z.object({}),
      enablePreflight: true,
      options: () => ({ credits: -1 }),
      run: () => null,
    });
    const service = openService({ tasks: [task] });
    const response = await post(service, '/workflows/bad-preflight/options', { params: {} });
    expect(response.status).toBe(500);
    expect(((await response.json()) as { reason: string }).reason).toBe('INTERNAL');
  });
});
