/**
 * `scriptTask` on the real reference service, read with the real client: the events are the
 * script's and no others, waits are on the service's clock, the end is the script's, and a script
 * that cannot be played is refused when it is written.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { createTaskClient } from '../../src/client/index.js';
import {
  createReferenceService,
  DEMO_CLIENT_TOKEN,
  DEMO_USER_TOKEN,
  type AnyTaskDefinition,
  type ReferenceServiceConfig,
} from '../../src/reference/index.js';
import { scriptTask, type ScriptStep } from '../../src/testing/index.js';

const services: { close(): Promise<void> }[] = [];

function setUp(tasks: AnyTaskDefinition[], config: ReferenceServiceConfig = {}) {
  const service = createReferenceService({ tasks, ...config });
  services.push(service);
  const client = createTaskClient({
    baseUrl: 'http://taskwire.test',
    userToken: DEMO_USER_TOKEN,
    clientToken: DEMO_CLIENT_TOKEN,
    fetch: (request) => service.fetch(request),
  });
  return { service, client };
}

async function collect<Event>(stream: AsyncIterable<Event>): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(services.splice(0).map((service) => service.close()));
});

describe('scriptTask', () => {
  it('plays every step in order and adds no event of its own', async () => {
    const task = scriptTask('upload', [
      { progress: [10, 9] },
      { emit: ['chunk-sent', { bytes: 512 }] },
      { partial: { url: 'https://files.example.com/part-1' } },
      { wait: 5 },
      { progress: [90, 1] },
      { charge: { toolId: 'storage', price: 0.5, amount: 4 } },
      { charge: { toolId: 'scan', price: 1, amount: 1, failed: true } },
      { complete: { url: 'https://files.example.com/file' } },
    ]);
    const { client } = setUp([task]);
    const events = await collect(client.stream('upload', {}));
    expect(events.map(({ type }) => type)).toEqual([
      'task.progress',
      'event.chunk-sent',
      'task.partial-result',
      'task.progress',
      'task.completed',
    ]);
    expect(events[0]).toMatchObject({ percent: 10, estimatedSecondsLeft: 9 });
    expect(events[1]).toMatchObject({ type: 'event.chunk-sent', bytes: 512 });
    expect(events[2]).toMatchObject({ result: { url: 'https://files.example.com/part-1' } });
    expect(events[4]).toEqual({
      type: 'task.completed',
      result: { url: 'https://files.example.com/file' },
      usage: {
        credits: 2,
        details: [
          { toolId: 'storage', price: 0.5, amount: 4, credits: 2, failed: false },
          { toolId: 'scan', price: 1, amount: 1, credits: 1, failed: true },
        ],
      },
    });
  });

  it('lists only the emitted events in the record, and completes with null', async () => {
    const { client } = setUp([scriptTask('ping', [{ emit: ['pong'] }, { complete: null }])]);
    const { id } = await client.submit('ping', {});
    await vi.waitFor(async () => {
      const record = await client.getResult('ping', id);
      expect(record.status).toBe('COMPLETED');
      expect(record.result).toBeNull();
      expect(record.events.map(({ type }) => type)).toEqual(['event.pong']);
      expect(record.usage).toBeUndefined();
    });
  });

  it('fails with the reason, message and status code of its fail step (500 by default)', async () => {
    const { client } = setUp([
      scriptTask('quota', [
        { progress: [50, 1] },
        { fail: { reason: 'QUOTA', message: 'Out of quota.', statusCode: 402 } },
      ]),
      scriptTask('crash', [{ fail: { reason: 'CRASH', message: 'It broke.' } }]),
    ]);
    const quota = await client.execute('quota', {});
    expect(quota).toMatchObject({
      status: 'FAILED',
      result: { status: 'error', statusCode: 402, reason: 'QUOTA', message: 'Out of quota.' },
    });
    const crash = await collect(client.stream('crash', {}));
    expect(crash).toEqual([
      {
        type: 'task.failed',
        result: { status: 'error', statusCode: 500, reason: 'CRASH', message: 'It broke.' },
      },
    ]);
  });

  it("waits on the service's clock: timeScale and fake timers apply", async () => {
    vi.useFakeTimers();
    const { client } = setUp([scriptTask('slow', [{ wait: 1000 }, { complete: { done: true } }])], {
      timeScale: 2,
    });
    const { id } = await client.submit('slow', {});
    await vi.advanceTimersByTimeAsync(1999);
    expect((await client.getResult('slow', id)).status).toBe('IN_PROGRESS');
    await vi.advanceTimersByTimeAsync(1);
    expect(await client.getResult('slow', id)).toMatchObject({
      status: 'COMPLETED',
      result: { done: true },
    });
  });

  it('checks params with the given schema, and takes any object without one', async () => {
    const { client } = setUp([
      scriptTask('strict', [{ complete: null }], { params: z.object({ count: z.int() }) }),
      scriptTask('loose', [{ complete: null }]),
    ]);
    await expect(client.execute('strict', { count: 'two' })).rejects.toMatchObject({
      code: 'http',
      status: 422,
      reason: 'INVALID_PARAMS',
    });
    await expect(client.execute('strict', { count: 2 })).resolves.toMatchObject({
      status: 'COMPLETED',
    });
    await expect(client.execute('loose', { anything: [1, 'two'] })).resolves.toMatchObject({
      status: 'COMPLETED',
    });
    await expect(client.execute('loose', {})).resolves.toMatchObject({ status: 'COMPLETED' });
  });

  it('answers Options with its monetization, as defineTask does', async () => {
    const { client } = setUp([
      scriptTask('priced', [{ complete: null }], {
        monetization: { toolId: 'render', price: 3, usageAmount: 2 },
      }),
      scriptTask('unpriced', [{ complete: null }]),
    ]);
    expect(await client.options('priced', {})).toEqual({
      monetization: { toolId: 'render' },
      usageAmount: 2,
      credits: 6,
    });
    expect(await client.options('unpriced', {})).toEqual({});
  });

  it('is not changed by changing the steps array afterwards', async () => {
    const steps: ScriptStep[] = [{ complete: { n: 1 } }];
    const { client } = setUp([scriptTask('frozen', steps)]);
    steps[0] = { complete: { n: 2 } };
    expect(await client.execute('frozen', {})).toMatchObject({ result: { n: 1 } });
  });

  describe('refuses a script it cannot play, when it is written', () => {
    it.each<[string, unknown[], RegExp]>([
      ['no steps', [], /has no end/],
      ['no end', [{ progress: [1, 1] }, { wait: 10 }], /has no end; its last step must be/],
      [
        'an end before the last step',
        [{ complete: null }, { wait: 1 }],
        /step 1 \(complete\) ends/,
      ],
      ['two keys in a step', [{ wait: 1, progress: [1, 1] }, { complete: null }], /exactly one/],
      ['an unknown key', [{ sleep: 1 }, { complete: null }], /exactly one.*it has sleep/],
      ['a bad progress', [{ progress: [1] }, { complete: null }], /\(progress\) takes/],
      ['a negative wait', [{ wait: -1 }, { complete: null }], /\(wait\) takes/],
      [
        'a charge without a tool',
        [{ charge: { price: 1, amount: 1 } }, { complete: null }],
        /\(charge\) takes/,
      ],
      ['a bad event action', [{ emit: ['no spaces'] }, { complete: null }], /\(emit\) takes/],
      ['a fail without message', [{ fail: { reason: 'X' } }], /\(fail\) takes/],
      ['a result that is no object', [{ complete: 'done' }], /\(complete\) takes/],
    ])('%s', (_what, steps, message) => {
      expect(() => scriptTask('broken', steps as ScriptStep[])).toThrow(message);
    });

    it('a name that breaks the task-name rule', () => {
      expect(() => scriptTask('no spaces', [{ complete: null }])).toThrow(TypeError);
    });
  });
});
