import { describe, expect, it } from 'vitest';
import { demoTasks, type ReferenceService } from '../../src/reference/index.js';
import { post, type RecordBody, runToEnd } from './service-requests.js';
import { openService } from './open-service.js';

/** A few params for every demo task, defaults included. */
const PARAMS: Readonly<Record<string, readonly Record<string, unknown>[]>> = {
  echo: [{ message: 'hi' }],
  'render-video': [
    {},
    { frames: 1, frameMs: 1 },
    { frames: 7, frameMs: 2 },
    { frames: 60, frameMs: 1 },
  ],
  'generate-images': [
    { prompt: 'a lighthouse' },
    { prompt: 'a lighthouse', count: 3 },
    { prompt: 'x', count: 8 },
  ],
  'translate-text': [
    { text: 'Bonjour', targetLanguage: 'en' },
    { text: 'x'.repeat(100), targetLanguage: 'de' },
    { text: 'x'.repeat(101), targetLanguage: 'pt-BR' },
  ],
  'failing-task': [{}, { reason: 'OUT_OF_FRAMES' }],
  'slow-report': [{}, { seconds: 0 }, { seconds: 2.5 }],
  'export-data': [{ format: 'csv' }, { format: 'json' }],
};

/** The demo tasks that charge, and so must quote a price. */
const PRICED = ['render-video', 'generate-images', 'translate-text', 'export-data'];

interface Quote {
  monetization?: { toolId: string };
  usageAmount?: number;
  credits?: number;
}

/** What Options answers for `task` and `params`. */
async function quote(service: ReferenceService, task: string, params: unknown): Promise<Quote> {
  const response = await post(service, `/workflows/${task}/options`, { params });
  expect(response.status).toBe(200);
  return ((await response.json()) as { response: Quote }).response;
}

const cases = Object.entries(PARAMS).flatMap(([task, list]) =>
  list.map((params) => ({ task, params, label: `${task} ${JSON.stringify(params)}` })),
);

describe('the demo tasks, priced', () => {
  it('has params here for every demo task', () => {
    expect(Object.keys(PARAMS).sort()).toEqual(demoTasks.map((task) => task.name).sort());
  });

  it.each(cases)('quotes what a run of $label charges', async ({ task, params }) => {
    const service = openService({ timeScale: 0.001 });
    const quoted = await quote(service, task, params);
    const record = await runToEnd(service, task, params);
    if (PRICED.includes(task)) {
      expect(record.status).toBe('COMPLETED');
      expect(quoted.credits).toBeDefined();
      expect(record.usage?.credits).toBeCloseTo(quoted.credits!, 9);
      expect(record.usage?.details.map((detail) => detail.toolId)).toContain(
        quoted.monetization?.toolId,
      );
    } else {
      expect(quoted).toEqual({});
      expect(record.usage).toBeUndefined();
    }
  });

  it('quotes the same as Execute charges, for a task with a static monetization', async () => {
    const service = openService({ timeScale: 0.001 });
    const quoted = await quote(service, 'export-data', { format: 'csv' });
    expect(quoted).toEqual({ monetization: { toolId: 'export' }, usageAmount: 1, credits: 1 });
    const response = await post(service, '/workflows/export-data/execute', {
      params: { format: 'csv' },
    });
    const { usage } = ((await response.json()) as { response: RecordBody }).response;
    expect(usage?.credits).toBe(quoted.credits);
  });

  it('quotes a render by its frames and a batch of images by its count', async () => {
    const service = openService({ timeScale: 0.001 });
    expect(await quote(service, 'render-video', { frames: 8 })).toEqual({
      monetization: { toolId: 'video-render' },
      usageAmount: 8,
      credits: 4,
    });
    expect(await quote(service, 'generate-images', { prompt: 'a', count: 4 })).toEqual({
      monetization: { toolId: 'image-gen' },
      usageAmount: 4,
      credits: 10,
    });
  });
});
