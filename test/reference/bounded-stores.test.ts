import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  createReferenceService,
  defineTask,
  type ReferenceService,
} from '../../src/reference/index.js';
import { handleRequest } from '../../src/reference/handle-request.js';
import { createServiceContext, type ServiceContext } from '../../src/reference/service-context.js';
import { AUTH, get, post, postRequest, submit } from './service-requests.js';
import { openService } from './open-service.js';

let context: ServiceContext | undefined;
afterEach(() => {
  context?.close();
  context = undefined;
});

/** A task that takes any text and finishes at once. */
const noteTask = defineTask({
  name: 'note',
  params: z.object({ text: z.string() }),
  run: () => ({ saved: true }),
});

/** Submits `params` to `note` with an `Idempotency-Key` straight through the request pipeline. */
async function submitNote(key: string, params: unknown): Promise<string> {
  const response = await handleRequest(
    context!,
    postRequest('/workflows/note/submit', { params }, { ...AUTH, 'idempotency-key': key }),
  );
  expect(response.status).toBe(202);
  return ((await response.json()) as { response: { id: string } }).response.id;
}

/** Runs `echo` with Execute and returns its task id. */
async function executeEcho(service: ReferenceService, message: string): Promise<string> {
  const response = await post(service, '/workflows/echo/execute', { params: { message } });
  expect(response.status).toBe(200);
  return ((await response.json()) as { response: { id: string } }).response.id;
}

/** The status Get Result answers for `echo`'s task `id`. */
async function resultStatus(service: ReferenceService, id: string, task = 'echo'): Promise<number> {
  return (await get(service, `/workflows/${task}/${id}/result`)).status;
}

describe('the Idempotency-Key store', () => {
  it('keeps a SHA-256 digest of the body, never the body itself', async () => {
    context = createServiceContext({ tasks: [noteTask] });
    const text = 'remember me '.repeat(40_000);
    await submitNote('big', { text });
    const entry = context.idempotency.get('demo-user', 'note', 'big');
    expect(entry?.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(entry).length).toBeLessThan(300);
    expect(JSON.stringify(entry)).not.toContain('remember me');
  });

  it('still tells the same body from another one by its digest', async () => {
    context = createServiceContext({ tasks: [noteTask] });
    const first = await submitNote('same', { text: 'a' });
    expect(await submitNote('same', { text: 'a' })).toBe(first);
    // The pipeline throws what the service's fetch turns into the error body.
    await expect(
      handleRequest(
        context,
        postRequest(
          '/workflows/note/submit',
          { params: { text: 'b' } },
          { ...AUTH, 'idempotency-key': 'same' },
        ),
      ),
    ).rejects.toMatchObject({ statusCode: 422, reason: 'IDEMPOTENCY_KEY_REUSED' });
  });

  it('holds at most limits.idempotencyKeys keys, whatever the number of Submits', async () => {
    context = createServiceContext({ tasks: [noteTask], limits: { idempotencyKeys: 5 } });
    for (let index = 0; index < 20; index += 1) await submitNote(`key-${index}`, { text: 'x' });
    expect(context.idempotency.size).toBe(5);
  });

  it('forgets the oldest key first past the cap: its repeat creates a new task', async () => {
    const service = openService({ tasks: [noteTask], limits: { idempotencyKeys: 2 } });
    const keyed = (key: string) => ({ ...AUTH, 'idempotency-key': key });
    const idOf = async (key: string) => {
      const response = await post(
        service,
        '/workflows/note/submit',
        { params: { text: key } },
        keyed(key),
      );
      return ((await response.json()) as { response: { id: string } }).response.id;
    };
    const oldest = await idOf('a');
    await idOf('b');
    const newest = await idOf('c');
    expect(await idOf('c')).toBe(newest);
    expect(await idOf('a')).not.toBe(oldest);
  });

  it('refuses a cap below 1 when the service is created', () => {
    expect(() => createReferenceService({ limits: { idempotencyKeys: 0 } })).toThrow(RangeError);
  });
});

describe('limits.tasks', () => {
  it('drops the tasks that finished first past the cap: their ids answer 410 RESULT_EXPIRED', async () => {
    const service = openService({ limits: { tasks: 3 } });
    const ids: string[] = [];
    for (let index = 0; index < 5; index += 1)
      ids.push(await executeEcho(service, `message ${index}`));
    const statuses = await Promise.all(ids.map((id) => resultStatus(service, id)));
    expect(statuses).toEqual([410, 410, 200, 200, 200]);
    const expired = await get(service, `/workflows/echo/${ids[0]}/result`);
    expect(await expired.json()).toMatchObject({ statusCode: 410, reason: 'RESULT_EXPIRED' });
  });

  it('holds at most limits.tasks records, whatever the number of tasks', async () => {
    context = createServiceContext({ limits: { tasks: 3 } });
    for (let index = 0; index < 20; index += 1) {
      const response = await handleRequest(
        context,
        postRequest('/workflows/echo/execute', { params: { message: `${index}` } }),
      );
      expect(response.status).toBe(200);
    }
    expect(context.store.size).toBe(3);
  });

  it('never drops a task that has not ended, even past the cap', async () => {
    const service = openService({ limits: { tasks: 2 } });
    const running = [
      await submit(service, 'slow-report', { seconds: 600 }),
      await submit(service, 'slow-report', { seconds: 600 }),
    ];
    const finished = await executeEcho(service, 'over the cap');
    expect(await resultStatus(service, finished)).toBe(410);
    for (const id of running) expect(await resultStatus(service, id, 'slow-report')).toBe(200);
  });

  it('forgets the markers of dropped tasks past the cap, oldest first (404)', async () => {
    const service = openService({ limits: { tasks: 1 } });
    const [oldest, older, newest] = [
      await executeEcho(service, '1'),
      await executeEcho(service, '2'),
      await executeEcho(service, '3'),
    ];
    expect(await resultStatus(service, oldest)).toBe(404);
    expect(await resultStatus(service, older)).toBe(410);
    expect(await resultStatus(service, newest)).toBe(200);
  });

  it('refuses a cap below 1 when the service is created', () => {
    expect(() => createReferenceService({ limits: { tasks: 0 } })).toThrow(RangeError);
  });
});
