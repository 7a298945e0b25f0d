import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { defineTask } from '../../src/reference/index.js';
import { AUTH, OTHER_AUTH, post, readRecord, waitForEnd } from './service-requests.js';
import { openService } from './open-service.js';

/** A task that counts its runs and charges one credit per run. */
function countingTask() {
  const counter = { runs: 0 };
  const task = defineTask({
    name: 'counted',
    params: z.object({ value: z.number() }),
    run: (context) => {
      counter.runs += 1;
      context.charge({ toolId: 'counter', price: 1, amount: 1 });
      return { runs: counter.runs };
    },
  });
  return { task, counter };
}

async function idOf(response: Response): Promise<string> {
  expect(response.status).toBe(202);
  return ((await response.json()) as { response: { id: string } }).response.id;
}

describe('Idempotency-Key', () => {
  it('answers a repeat with the first answer, creating and charging one task', async () => {
    const { task, counter } = countingTask();
    const service = openService({ tasks: [task] });
    const headers = { ...AUTH, 'idempotency-key': 'key-1' };
    const first = await post(
      service,
      '/workflows/counted/submit',
      { params: { value: 1 } },
      headers,
    );
    const firstId = await idOf(first);
    await waitForEnd(service, 'counted', firstId);
    const repeat = await post(
      service,
      '/workflows/counted/submit',
      { params: { value: 1 } },
      headers,
    );
    expect(await idOf(repeat)).toBe(firstId);
    expect(repeat.headers.get('location')).toBe(first.headers.get('location'));
    expect(counter.runs).toBe(1);
    expect((await readRecord(service, 'counted', firstId)).usage?.credits).toBe(1);
  });

  it('makes one task and one charge out of fifty concurrent copies', async () => {
    const { task, counter } = countingTask();
    const service = openService({ tasks: [task] });
    const headers = { ...AUTH, 'idempotency-key': 'burst' };
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        post(service, '/workflows/counted/submit', { params: { value: 7 } }, headers),
      ),
    );
    const ids = new Set(await Promise.all(answers.map(idOf)));
    expect(ids.size).toBe(1);
    const [id] = [...ids];
    const record = await waitForEnd(service, 'counted', id!);
    expect(counter.runs).toBe(1);
    expect(record.usage).toEqual({
      credits: 1,
      details: [{ toolId: 'counter', price: 1, amount: 1, credits: 1, failed: false }],
    });
  });

  it('answers 422 IDEMPOTENCY_KEY_REUSED for the same key with other params or notification', async () => {
    const { task, counter } = countingTask();
    const service = openService({ tasks: [task] });
    const headers = { ...AUTH, 'idempotency-key': 'key-2' };
    await idOf(await post(service, '/workflows/counted/submit', { params: { value: 1 } }, headers));
    const otherParams = await post(
      service,
      '/workflows/counted/submit',
      { params: { value: 2 } },
      headers,
    );
    expect(otherParams.status).toBe(422);
    expect(((await otherParams.json()) as { reason: string }).reason).toBe(
      'IDEMPOTENCY_KEY_REUSED',
    );
    const withNotification = await post(
      service,
      '/workflows/counted/submit',
      { params: { value: 1 }, notification: { enabled: true } },
      headers,
    );
    expect(withNotification.status).toBe(422);
    expect(counter.runs).toBe(1);
  });

  it('treats the same members in another order as the same body', async () => {
    const service = openService({ timeScale: 0.001 });
    const headers = { ...AUTH, 'idempotency-key': 'order' };
    const first = await post(
      service,
      '/workflows/render-video/submit',
      { params: { frames: 2, frameMs: 5 } },
      headers,
    );
    const second = await post(
      service,
      '/workflows/render-video/submit',
      { params: { frameMs: 5, frames: 2 } },
      headers,
    );
    expect(await idOf(second)).toBe(await idOf(first));
  });

  it('keeps keys apart per user and per task', async () => {
    const service = openService({ timeScale: 0.001 });
    const body = { params: { message: 'x' } };
    const mine = await idOf(
      await post(service, '/workflows/echo/submit', body, { ...AUTH, 'idempotency-key': 'k' }),
    );
    const theirs = await idOf(
      await post(service, '/workflows/echo/submit', body, {
        ...OTHER_AUTH,
        'idempotency-key': 'k',
      }),
    );
    const otherTask = await idOf(
      await post(
        service,
        '/workflows/export-data/submit',
        { params: { format: 'csv' } },
        {
          ...AUTH,
          'idempotency-key': 'k',
        },
      ),
    );
    expect(new Set([mine, theirs, otherTask]).size).toBe(3);
  });

  it('forgets a key after 24 hours', async () => {
    let now = 0;
    const { task, counter } = countingTask();
    const service = openService({ tasks: [task], now: () => now });
    const headers = { ...AUTH, 'idempotency-key': 'day' };
    const body = { params: { value: 1 } };
    const first = await idOf(await post(service, '/workflows/counted/submit', body, headers));
    now += 24 * 60 * 60 * 1000 - 1;
    expect(await idOf(await post(service, '/workflows/counted/submit', body, headers))).toBe(first);
    now += 1;
    const later = await idOf(await post(service, '/workflows/counted/submit', body, headers));
    expect(later).not.toBe(first);
    await waitForEnd(service, 'counted', later);
    expect(counter.runs).toBe(2);
  });

  it('creates a task per request without a key', async () => {
    const { task, counter } = countingTask();
    const service = openService({ tasks: [task] });
    const ids = await Promise.all(
      Array.from({ length: 3 }, async () =>
        idOf(await post(service, '/workflows/counted/submit', { params: { value: 1 } })),
      ),
    );
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) await waitForEnd(service, 'counted', id);
    expect(counter.runs).toBe(3);
  });
});
