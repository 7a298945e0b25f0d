import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { createReferenceService, defineTask } from '../../src/reference/index.js';

describe('defineTask', () => {
  it('returns the declaration, frozen', () => {
    const task = defineTask({ name: 'ok.task_1', params: z.object({}), run: () => null });
    expect(task.name).toBe('ok.task_1');
    expect(Object.isFrozen(task)).toBe(true);
  });

  it('refuses a name that breaks the task-name rule', () => {
    for (const name of ['', '-leading', 'has space', 'a/b', 'a'.repeat(129), 'é']) {
      expect(() => defineTask({ name, params: z.object({}), run: () => null })).toThrow(TypeError);
    }
  });

  it('refuses enablePreflight without options()', () => {
    expect(() =>
      defineTask({ name: 'x', params: z.object({}), enablePreflight: true, run: () => null }),
    ).toThrow(/options/);
  });

  it('refuses a negative price', () => {
    expect(() =>
      defineTask({
        name: 'x',
        params: z.object({}),
        monetization: { toolId: 't', price: -1 },
        run: () => null,
      }),
    ).toThrow(TypeError);
  });
});

describe('createReferenceService', () => {
  it('refuses two tasks of one name and a negative time scale', () => {
    const task = defineTask({ name: 'twin', params: z.object({}), run: () => null });
    expect(() => createReferenceService({ tasks: [task, task] })).toThrow(/twin/);
    expect(() => createReferenceService({ timeScale: -1 })).toThrow(RangeError);
    expect(() =>
      createReferenceService({ limits: { rateLimit: { perSecond: 0, burst: 1 } } }),
    ).toThrow(RangeError);
  });
});
