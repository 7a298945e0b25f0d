import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  createTaskClient,
  type TaskClientConfig,
  type TaskSchemas,
} from '../../src/client/index.js';
import {
  createReferenceService,
  defineTask,
  DEMO_CLIENT_TOKEN,
  DEMO_USER_TOKEN,
  demoTasks,
  demoTaskSchemas,
  OTHER_USER_TOKEN,
  type ReferenceServiceConfig,
} from '../../src/reference/index.js';
import { startReferenceServer } from '../../src/reference/node/start-reference-server.js';
import { DEMO_TOKENS as tokens } from '../support/demo-auth.js';
import { failure } from '../support/failure.js';

/** Everything a test closes when it ends. */
const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

type Transport = 'in-process' | 'loopback';

/**
 * A fresh reference service for one test, reached in-process through `service.fetch` or over a
 * loopback socket; returns the client config to reach it.
 */
async function serve(
  transport: Transport,
  config: ReferenceServiceConfig = {},
): Promise<Pick<TaskClientConfig, 'baseUrl' | 'fetch'>> {
  const service = createReferenceService({ timeScale: 0.01, ...config });
  switch (transport) {
    case 'in-process':
      closers.push(() => service.close());
      return { baseUrl: 'http://taskwire.test', fetch: (request) => service.fetch(request) };
    case 'loopback': {
      const server = await startReferenceServer({ service });
      closers.push(() => server.close());
      return { baseUrl: server.url };
    }
    default:
      return transport satisfies never;
  }
}

describe.each<Transport>(['in-process', 'loopback'])(
  'createTaskClient against the reference service (%s)',
  (transport) => {
    it('submits a task and reads its result until it completes', async () => {
      const client = createTaskClient({
        ...(await serve(transport)),
        ...tokens,
        tasks: demoTaskSchemas,
      });
      const submitted = await client.submit('echo', { message: 'hello' });
      expect(submitted.status).toBe('ACCEPTED');
      let record = await client.getResult('echo', submitted.id);
      while (record.status !== 'COMPLETED' && record.status !== 'FAILED') {
        await new Promise((resolve) => setTimeout(resolve, 10));
        record = await client.getResult('echo', submitted.id);
      }
      expect(record).toMatchObject({
        id: submitted.id,
        status: 'COMPLETED',
        result: { echo: 'hello' },
      });
    });

    it('answers the same id for the same idempotency key and refuses the key with other params', async () => {
      const client = createTaskClient({ ...(await serve(transport)), ...tokens });
      const first = await client.submit('echo', { message: 'a' }, { idempotencyKey: 'key-1' });
      const again = await client.submit('echo', { message: 'a' }, { idempotencyKey: 'key-1' });
      expect(again.id).toBe(first.id);
      const error = await failure(
        client.submit('echo', { message: 'b' }, { idempotencyKey: 'key-1' }),
      );
      expect(error).toMatchObject({ code: 'http', status: 422, reason: 'IDEMPOTENCY_KEY_REUSED' });
    });

    it('streams render-video with typed events whose ids match Get Result', async () => {
      const client = createTaskClient({
        ...(await serve(transport)),
        ...tokens,
        tasks: demoTaskSchemas,
      });
      const stream = client.stream('render-video', { frames: 6, frameMs: 100 });
      const types: string[] = [];
      const eventIds: string[] = [];
      let final: unknown;
      for await (const event of stream) {
        types.push(event.type);
        if (event.type === 'event.frame-rendered' || event.type === 'event.thumbnail-ready') {
          expect(event.eventId).toEqual(expect.any(String));
          eventIds.push(event.eventId ?? '');
        }
        if (event.type === 'task.completed') final = event;
      }
      expect(types.filter((type) => type === 'event.frame-rendered')).toHaveLength(6);
      expect(types).toContain('task.progress');
      expect(types).toContain('task.partial-result');
      expect(types.at(-1)).toBe('task.completed');
      expect(final).toMatchObject({ result: { frames: 6 }, usage: { credits: 3 } });
      const taskId = stream.taskId ?? '';
      const record = await client.getResult('render-video', taskId);
      expect(record.status).toBe('COMPLETED');
      expect(record.events.map((event) => event.id)).toEqual(eventIds);
    });

    it('streams a failing task to its task.failed event', async () => {
      const client = createTaskClient({ ...(await serve(transport)), ...tokens });
      const events = [];
      for await (const event of client.stream('failing-task', { reason: 'OUT_OF_INK' }))
        events.push(event);
      expect(events.at(-1)).toMatchObject({
        type: 'task.failed',
        result: { status: 'error', reason: 'OUT_OF_INK' },
      });
    });

    it('stops a stream when aborted, and the task can still be read', async () => {
      const client = createTaskClient({ ...(await serve(transport)), ...tokens });
      const controller = new AbortController();
      const stream = client.stream(
        'render-video',
        { frames: 50, frameMs: 1000 },
        { signal: controller.signal },
      );
      const error = await failure(
        (async () => {
          for await (const event of stream) if (event.type === 'task.progress') controller.abort();
        })(),
      );
      expect(error.code).toBe('aborted');
      expect(error.taskId).toBe(stream.taskId);
      const record = await client.getResult('render-video', stream.taskId ?? '');
      expect(record.id).toBe(stream.taskId);
    });

    it('executes a task with usage that has a failed, uncharged entry', async () => {
      const client = createTaskClient({
        ...(await serve(transport)),
        ...tokens,
        tasks: demoTaskSchemas,
      });
      const record = await client.execute('generate-images', { prompt: 'a cat', count: 2 });
      expect(record.status).toBe('COMPLETED');
      expect(record.result).toMatchObject({ images: [expect.any(String), expect.any(String)] });
      expect(record.usage?.credits).toBe(5);
      expect(record.usage?.details.find((detail) => detail.failed)?.toolId).toBe('safety-check');
    });

    it('executes a failing task as data, not an error', async () => {
      const client = createTaskClient({ ...(await serve(transport)), ...tokens });
      const record = await client.execute('failing-task', {});
      expect(record).toMatchObject({
        status: 'FAILED',
        result: { reason: 'DEMO_FAILURE', statusCode: 500 },
      });
    });

    it('asks Options for a static price, a preflight price, and nothing', async () => {
      const client = createTaskClient({
        ...(await serve(transport)),
        ...tokens,
        tasks: demoTaskSchemas,
      });
      expect(await client.options('export-data', { format: 'csv' })).toEqual({
        monetization: { toolId: 'export' },
        usageAmount: 1,
        credits: 1,
      });
      expect(
        await client.options('translate-text', { text: 'y'.repeat(250), targetLanguage: 'fr' }),
      ).toEqual({
        monetization: { toolId: 'translate' },
        usageAmount: 3,
        credits: 3,
      });
      expect(await client.options('echo', { message: 'x' })).toEqual({});
    });

    it('turns EXECUTE_TIMEOUT into timeout with the task id, and the task goes on', async () => {
      const client = createTaskClient({
        ...(await serve(transport, { limits: { executeTimeoutMs: 50 } })),
        ...tokens,
      });
      const error = await failure(client.execute('slow-report', { seconds: 30 }));
      expect(error).toMatchObject({ code: 'timeout', status: 504, reason: 'EXECUTE_TIMEOUT' });
      expect(error.taskId).toEqual(expect.any(String));
      const record = await client.getResult('slow-report', error.taskId ?? '');
      expect(['ACCEPTED', 'IN_PROGRESS', 'COMPLETED']).toContain(record.status);
    });

    it('refreshes the token after a 401 and succeeds', async () => {
      let userToken = 'expired-token';
      let refreshes = 0;
      const client = createTaskClient({
        ...(await serve(transport)),
        userToken: () => userToken,
        clientToken: DEMO_CLIENT_TOKEN,
        onUnauthorized: () => {
          refreshes++;
          userToken = DEMO_USER_TOKEN;
        },
      });
      expect(await client.options('echo', { message: 'x' })).toEqual({});
      expect(refreshes).toBe(1);
    });

    it('reports each error reason the client can provoke', async () => {
      let now = 1_000_000;
      const boom = defineTask({
        name: 'boom',
        params: z.object({}),
        run: () => {
          throw new Error('secret stack detail');
        },
      });
      const target = await serve(transport, {
        tasks: [...demoTasks, boom],
        limits: { bodyBytes: 2048, retentionMs: 1000, rateLimit: { perSecond: 0.001, burst: 100 } },
        now: () => now,
      });
      const client = createTaskClient({ ...target, ...tokens });
      const reason = async (promise: Promise<unknown>) => {
        const error = await failure(promise);
        return `${error.code} ${error.status} ${error.reason}`;
      };
      expect(
        await reason(
          createTaskClient({ ...target, ...tokens, userToken: 'nobody' }).options('echo', {}),
        ),
      ).toBe('http 401 UNAUTHENTICATED');
      expect(
        await reason(
          createTaskClient({ ...target, ...tokens, platform: 'x'.repeat(65) }).options('echo', {}),
        ),
      ).toBe('http 400 INVALID_HEADER');
      expect(await reason(client.execute('echo', { message: 5 }))).toBe('http 422 INVALID_PARAMS');
      expect(
        await reason(
          client.submit(
            'export-data',
            { format: 'csv' },
            { notification: { enabled: true, actions: [{ deeplink: 'javascript:alert(1)' }] } },
          ),
        ),
      ).toBe('http 422 INVALID_NOTIFICATION');
      expect(await reason(client.execute('echo', { message: 'm'.repeat(4000) }))).toBe(
        'http 413 PAYLOAD_TOO_LARGE',
      );
      expect(await reason(client.options('no-such-task', {}))).toBe('http 404 TASK_NOT_FOUND');
      expect(await reason(client.getResult('echo', 'no-such-id'))).toBe(
        'http 404 RESULT_NOT_FOUND',
      );
      expect(
        await reason(
          createTaskClient({
            ...target,
            ...tokens,
            baseUrl: `${target.baseUrl}/elsewhere`,
          }).options('echo', {}),
        ),
      ).toBe('http 404 NOT_FOUND');
      const mine = await client.execute('echo', { message: 'mine' });
      expect(
        await reason(
          createTaskClient({ ...target, ...tokens, userToken: OTHER_USER_TOKEN }).getResult(
            'echo',
            mine.id,
          ),
        ),
      ).toBe('http 404 RESULT_NOT_FOUND');
      const crashed = await client.execute('boom', {});
      expect(crashed).toMatchObject({
        status: 'FAILED',
        result: { reason: 'TASK_ERROR', statusCode: 500 },
      });
      expect(JSON.stringify(crashed)).not.toContain('secret stack detail');
      now += 5000;
      expect(await reason(client.getResult('echo', mine.id))).toBe('http 410 RESULT_EXPIRED');
    });

    it('reports RATE_LIMITED with Retry-After', async () => {
      const client = createTaskClient({
        ...(await serve(transport, { limits: { rateLimit: { perSecond: 0.5, burst: 1 } } })),
        ...tokens,
      });
      await client.options('echo', { message: 'x' });
      const error = await failure(client.options('echo', { message: 'x' }));
      expect(error).toMatchObject({
        code: 'http',
        status: 429,
        reason: 'RATE_LIMITED',
        retryable: true,
      });
      expect(error.retryAfterMs).toBeGreaterThanOrEqual(1000);
    });

    it('refuses typed params before sending and validates typed results', async () => {
      const client = createTaskClient({
        ...(await serve(transport)),
        ...tokens,
        tasks: demoTaskSchemas,
      });
      const error = await failure(
        client.execute('echo', { message: 5 } as unknown as { message: string }),
      );
      expect(error).toMatchObject({ code: 'protocol', reason: 'INVALID_PARAMS' });
      expect(error.message).toContain('message');
      const wrongSchemas = {
        echo: { params: z.object({ message: z.string() }), result: z.object({ echo: z.number() }) },
      } satisfies TaskSchemas;
      const strict = createTaskClient({
        ...(await serve(transport)),
        ...tokens,
        tasks: wrongSchemas,
      });
      const mismatch = await failure(strict.execute('echo', { message: 'x' }));
      expect(mismatch.code).toBe('protocol');
      expect(mismatch.message).toContain('response.result.echo');
      expect(mismatch.taskId).toEqual(expect.any(String));
    });
  },
);
