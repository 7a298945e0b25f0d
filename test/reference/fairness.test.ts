import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { createReferenceService, defineTask } from '../../src/reference/index.js';
import {
  AUTH,
  OTHER_AUTH,
  post,
  readRecord,
  readStream,
  submit,
  waitForEnd,
} from './service-requests.js';
import { openService, openServiceOnFakeClock } from './open-service.js';
import { settleOnFakeClock } from '../support/fake-clock.js';

/** A task that reports `secondsLeft` and then waits until the test releases it. */
function heldTask(secondsLeft = 0) {
  const releases: Array<() => void> = [];
  const task = defineTask({
    name: 'held',
    params: z.object({}),
    run: async (context) => {
      context.progress(10, secondsLeft);
      await new Promise<void>((resolve) => releases.push(resolve));
      return { done: true };
    },
  });
  return { task, releases };
}

/** A long `slow-report` that is still running when the test ends (the service closes it). */
const LONG = { seconds: 600 };

/** The status, reason and Retry-After of a refused request, with its body checked. */
async function refusal(response: Response) {
  const body = (await response.json()) as Record<string, unknown>;
  expect(body).toEqual({
    status: 'error',
    statusCode: response.status,
    reason: body.reason,
    message: expect.any(String),
  });
  return {
    status: response.status,
    reason: body.reason,
    retryAfter: response.headers.get('retry-after'),
  };
}

describe('limits.tasksPerUser', () => {
  it("runs another user's Execute at once while one user has asked for 256 long tasks", async () => {
    // The defaults: 256 tasks run at once, 32 per user. Without a share per user, the first user's
    // tasks would fill every place and the other user's echo would wait past the Execute limit.
    // On the fake clock, so the second below is the service's time, not the machine's.
    const service = openServiceOnFakeClock({ limits: { executeTimeoutMs: 2000 } });
    const answers = await Promise.all(
      Array.from({ length: 256 }, () =>
        post(service, '/workflows/slow-report/submit', { params: LONG }),
      ),
    );

    const started = Date.now();
    // Nothing else is in the service's hands: the clock moves in 50 ms steps until the answer.
    const execute = await settleOnFakeClock(
      post(service, '/workflows/echo/execute', { params: { message: 'not starved' } }, OTHER_AUTH),
      { inFlight: () => undefined },
      'the Execute',
      { maxMs: 5000 },
    );
    expect(execute.status).toBe(200);
    expect(await execute.json()).toMatchObject({
      response: { status: 'COMPLETED', result: { echo: 'not starved' } },
    });
    expect(Date.now() - started).toBeLessThan(1000);
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 202)).toHaveLength(32);
    expect(statuses.filter((status) => status === 429)).toHaveLength(224);
  });

  it('answers 429 TOO_MANY_TASKS with a Retry-After and the error body past the limit', async () => {
    const service = openService({ limits: { tasksPerUser: 2 } });
    await submit(service, 'slow-report', LONG);
    await submit(service, 'slow-report', LONG);
    const third = await post(service, '/workflows/slow-report/submit', { params: LONG });
    const { status, reason, retryAfter } = await refusal(third);
    expect([status, reason]).toEqual([429, 'TOO_MANY_TASKS']);
    expect(retryAfter).toMatch(/^[1-9]\d*$/);
    expect(third.headers.get('x-task-id')).toBeNull();
  });

  it('counts the tasks of Submit, Stream and Execute alike, and refuses each of them', async () => {
    const { task, releases } = heldTask();
    const service = openService({ tasks: [task], limits: { tasksPerUser: 3 } });
    await submit(service, 'held', {});
    const stream = await post(service, '/workflows/held/stream', { params: {} });
    expect(stream.status).toBe(200);
    const execute = post(service, '/workflows/held/execute', { params: {} });
    await expect.poll(() => releases.length).toBe(3);

    for (const endpoint of ['submit', 'stream', 'execute']) {
      const refused = await post(service, `/workflows/held/${endpoint}`, { params: {} });
      expect(refused.status, endpoint).toBe(429);
      expect(refused.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect((await refusal(refused)).reason).toBe('TOO_MANY_TASKS');
    }
    for (const release of releases) release();
    expect((await execute).status).toBe(200);
    await readStream(stream);
  });

  it('lets the user start another task as soon as one of theirs has ended', async () => {
    const { task, releases } = heldTask();
    const service = openService({ tasks: [task], limits: { tasksPerUser: 1 } });
    const first = await submit(service, 'held', {});
    await expect.poll(() => releases.length).toBe(1);
    expect((await post(service, '/workflows/held/submit', { params: {} })).status).toBe(429);
    releases[0]!();
    await waitForEnd(service, 'held', first);
    expect((await post(service, '/workflows/held/submit', { params: {} })).status).toBe(202);
  });

  it("starts another user's task as if the first user's did not exist", async () => {
    const service = openService({ limits: { tasksPerUser: 1 } });
    await submit(service, 'slow-report', LONG);
    expect((await post(service, '/workflows/slow-report/submit', { params: LONG })).status).toBe(
      429,
    );
    const other = await post(
      service,
      '/workflows/slow-report/submit',
      { params: LONG },
      OTHER_AUTH,
    );
    expect(other.status).toBe(202);
  });

  it('answers an idempotent repeat of an accepted Submit with its first answer, even at the limit', async () => {
    const { task, releases } = heldTask();
    const service = openService({ tasks: [task], limits: { tasksPerUser: 1 } });
    const keyed = (key: string) => ({ ...AUTH, 'idempotency-key': key });
    const first = await post(service, '/workflows/held/submit', { params: {} }, keyed('one'));
    expect(first.status).toBe(202);
    const repeat = await post(service, '/workflows/held/submit', { params: {} }, keyed('one'));
    expect(repeat.status).toBe(202);
    const firstBody = (await first.json()) as { response: { id: string } };
    expect(await repeat.json()).toEqual(firstBody);

    // A Submit refused for the limit records nothing under its key: once a place is free, the
    // same key starts a task.
    const refused = await post(service, '/workflows/held/submit', { params: {} }, keyed('two'));
    expect(refused.status).toBe(429);
    await expect.poll(() => releases.length).toBe(1);
    releases[0]!();
    await waitForEnd(service, 'held', firstBody.response.id);
    const later = await post(service, '/workflows/held/submit', { params: {} }, keyed('two'));
    expect(later.status).toBe(202);
  });

  it("checks the params before the user's share, and Options is not counted", async () => {
    const service = openService({ limits: { tasksPerUser: 1 } });
    await submit(service, 'slow-report', LONG);
    const badParams = await post(service, '/workflows/slow-report/submit', {
      params: { seconds: -1 },
    });
    expect(badParams.status).toBe(422);
    const options = await post(service, '/workflows/slow-report/options', { params: LONG });
    expect(options.status).toBe(200);
  });

  it.each([
    ['the soonest expected end of the running tasks, rounded up', 2.2, '3'],
    ['at least 1 second', 0, '1'],
    ['at most 5 seconds, however long the tasks expect to take', 3600, '5'],
  ])('hints %s in Retry-After', async (_, secondsLeft, hint) => {
    const { task, releases } = heldTask(secondsLeft);
    const service = openService({ tasks: [task], limits: { tasksPerUser: 1 } });
    await submit(service, 'held', {});
    await expect.poll(() => releases.length).toBe(1);
    const refused = await post(service, '/workflows/held/submit', { params: {} });
    expect(refused.headers.get('retry-after')).toBe(hint);
  });

  it('hints 5 seconds when every task of the user still waits for a place to run', async () => {
    const { task, releases } = heldTask(1);
    const service = openService({
      tasks: [task],
      limits: { tasksPerUser: 1, concurrentTasks: 1 },
    });
    await submit(service, 'held', {}, OTHER_AUTH);
    await expect.poll(() => releases.length).toBe(1);
    const waiting = await submit(service, 'held', {});
    expect((await readRecord(service, 'held', waiting)).status).toBe('ACCEPTED');
    const refused = await post(service, '/workflows/held/submit', { params: {} });
    expect(refused.headers.get('retry-after')).toBe('5');
  });

  it('refuses a limit below 1 when the service is created', () => {
    expect(() => createReferenceService({ limits: { tasksPerUser: 0 } })).toThrow(RangeError);
  });
});
