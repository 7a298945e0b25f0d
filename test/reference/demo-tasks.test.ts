import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { findUsageInconsistency } from '../../src/protocol/usage.js';
import {
  DEMO_CLIENT_TOKEN,
  DEMO_USER_TOKEN,
  OTHER_USER_TOKEN,
  demoTaskSchemas,
  demoTasks,
  type ReferenceService,
} from '../../src/reference/index.js';
import { eventsOf, post, readStream } from './service-requests.js';
import { openService } from './open-service.js';

async function streamTask(service: ReferenceService, task: string, params: unknown) {
  const response = await post(service, `/workflows/${task}/stream`, { params });
  expect(response.status).toBe(200);
  return eventsOf(await readStream(response));
}

describe('demo tasks', () => {
  it('exports the demo tokens and a schema for every demo task', () => {
    expect([DEMO_USER_TOKEN, OTHER_USER_TOKEN, DEMO_CLIENT_TOKEN]).toEqual([
      'demo-user-token',
      'other-user-token',
      'demo-client-token',
    ]);
    expect(demoTasks.map((task) => task.name).sort()).toEqual(Object.keys(demoTaskSchemas).sort());
    expect(Object.keys(demoTaskSchemas).sort()).toEqual([
      'echo',
      'export-data',
      'failing-task',
      'generate-images',
      'render-video',
      'slow-report',
      'translate-text',
    ]);
  });

  it('echo finishes at once with the message and no usage', async () => {
    const service = openService();
    const events = await streamTask(service, 'echo', { message: 'hello' });
    expect(events).toEqual([{ type: 'task.completed', result: { echo: 'hello' } }]);
  });

  it('render-video reports progress, partial results and both custom events, all matching its schemas', async () => {
    const service = openService({ timeScale: 0.001 });
    const events = await streamTask(service, 'render-video', {});
    const schemas = demoTaskSchemas['render-video'];
    const progress = events.filter((event) => event.type === 'task.progress');
    expect(progress).toHaveLength(20);
    expect(progress.map((event) => event.percent)).toEqual(
      Array.from({ length: 20 }, (_, index) => ((index + 1) / 20) * 100),
    );
    const partials = events.filter((event) => event.type === 'task.partial-result');
    expect(partials.length).toBe(3);
    for (const partial of partials)
      expect(z.safeParse(schemas.result, partial.result).success).toBe(true);
    const custom = events.filter((event) => event.type.startsWith('event.'));
    expect(custom).toHaveLength(21);
    for (const event of custom) expect(z.safeParse(schemas.events, event).success).toBe(true);
    const completed = events.at(-1)!;
    expect(completed.type).toBe('task.completed');
    expect(z.safeParse(schemas.result, completed.result).success).toBe(true);
    expect(findUsageInconsistency(completed.usage as never)).toBeUndefined();
    expect(z.parse(schemas.params, {})).toEqual({ frames: 20, frameMs: 150 });
  });

  it('render-video fails at the frame failAtFrame names, before it renders it', async () => {
    const service = openService({ timeScale: 0.001 });
    const events = await streamTask(service, 'render-video', { frames: 4, failAtFrame: 2 });
    expect(events.filter((event) => event.type === 'task.progress')).toHaveLength(1);
    expect(events.at(-1)).toEqual({
      type: 'task.failed',
      result: {
        status: 'error',
        statusCode: 500,
        reason: 'RENDER_FAILED',
        message: 'Frame 2 failed to render (failAtFrame).',
      },
    });
    // Past the last frame it never fails.
    expect(
      (await streamTask(service, 'render-video', { frames: 2, failAtFrame: 3 })).at(-1),
    ).toMatchObject({ type: 'task.completed' });
  });

  it('generate-images charges its tools with a failed, uncharged sub-tool', async () => {
    const service = openService({ timeScale: 0.001 });
    const events = await streamTask(service, 'generate-images', {
      prompt: 'a lighthouse',
      count: 3,
    });
    const completed = events.at(-1)!;
    const usage = completed.usage as { credits: number; details: Array<{ failed: boolean }> };
    expect(findUsageInconsistency(usage as never)).toBeUndefined();
    expect(usage.credits).toBe(3 * 2 + 3 * 0.5);
    expect(usage.details.filter((detail) => detail.failed)).toHaveLength(1);
    expect(events.filter((event) => event.type === 'task.partial-result')).toHaveLength(3);
    expect(z.safeParse(demoTaskSchemas['generate-images'].result, completed.result).success).toBe(
      true,
    );
  });

  it('translate-text charges what its preflight quoted', async () => {
    const service = openService({ timeScale: 0.001 });
    const params = { text: 'Bonjour '.repeat(40), targetLanguage: 'en' };
    const quote = await post(service, '/workflows/translate-text/options', { params });
    const { response: options } = (await quote.json()) as { response: { credits: number } };
    const events = await streamTask(service, 'translate-text', params);
    const completed = events.at(-1)!;
    expect((completed.usage as { credits: number }).credits).toBe(options.credits);
    expect(completed.result).toEqual({ text: `[en] ${params.text}`, targetLanguage: 'en' });
  });

  it('failing-task fails with its default or given reason', async () => {
    const service = openService({ timeScale: 0.001 });
    const byDefault = await streamTask(service, 'failing-task', {});
    expect(byDefault.at(-1)).toMatchObject({
      type: 'task.failed',
      result: { reason: 'DEMO_FAILURE' },
    });
    const given = await streamTask(service, 'failing-task', { reason: 'NO_GPU' });
    expect(given.at(-1)).toMatchObject({ type: 'task.failed', result: { reason: 'NO_GPU' } });
  });

  it('slow-report runs past the 20 s Execute limit by default and reports progress every second', async () => {
    const service = openService({ timeScale: 0.0005 });
    expect(z.parse(demoTaskSchemas['slow-report'].params, {})).toEqual({ seconds: 30 });
    const events = await streamTask(service, 'slow-report', {});
    expect(events.filter((event) => event.type === 'task.progress')).toHaveLength(30);
    expect(events.at(-1)).toMatchObject({ type: 'task.completed', result: { seconds: 30 } });
  });

  it('export-data completes with a file of the asked format', async () => {
    const service = openService({ timeScale: 0.001 });
    const events = await streamTask(service, 'export-data', { format: 'json' });
    expect(events.at(-1)).toMatchObject({ type: 'task.completed', result: { format: 'json' } });
    expect(demoTasks.find((task) => task.name === 'export-data')?.notifies).toBe(true);
  });
});
