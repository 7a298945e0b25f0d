/**
 * TaskwirePlugin and the composables that need little more than it: useExecuteTask, useTaskList,
 * and the refusals of a plugin set up wrong.
 */
import { QueryClient, VueQueryPlugin } from '@tanstack/vue-query';
import { mount } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp, defineComponent } from 'vue';
import { TaskwireError } from '../../src/client/index.js';
import {
  createTaskClient,
  createTaskJournal,
  TaskwirePlugin,
  useExecuteTask,
  useTaskList,
  useTaskResult,
} from '../../src/vue/index.js';
import { closeHookTestServices, hookTestService } from '../support/hook-test-service.js';
import { mapStorage } from '../support/map-storage.js';
import { mountComposable } from '../support/vue-page.js';

afterEach(closeHookTestServices);

describe('TaskwirePlugin', () => {
  it('refuses a journal with a client whose scope was not set, before storing anything', () => {
    const storage = mapStorage();
    const client = createTaskClient({ baseUrl: 'http://taskwire.test', userToken: 'token' });
    const app = createApp({ render: () => null }).use(VueQueryPlugin);
    let refusal: unknown;
    try {
      app.use(TaskwirePlugin, { client, journal: createTaskJournal({ storage }) });
    } catch (error) {
      refusal = error;
    }
    expect(TaskwireError.isInstance(refusal)).toBe(true);
    expect(refusal).toMatchObject({ code: 'protocol', reason: 'SCOPE_REQUIRED' });
    expect((refusal as Error).message).toContain('TaskwirePlugin');
    expect(storage.writes).toEqual([]);
  });

  it('tells a composable used without it what to install', () => {
    const Page = defineComponent({
      setup() {
        useTaskResult('echo', undefined);
        return () => null;
      },
    });
    const queryClient = new QueryClient();
    expect(() => mount(Page, { global: { plugins: [[VueQueryPlugin, { queryClient }]] } })).toThrow(
      'app.use(TaskwirePlugin, { client })',
    );
  });
});

describe('useExecuteTask (Vue)', () => {
  it('runs a task and gives its outcome, a failed task as data', async () => {
    const { options, count } = hookTestService();
    const { result } = mountComposable(
      () => ({ echo: useExecuteTask('echo'), failing: useExecuteTask('failing-task') }),
      options,
    );
    const record = await result.echo.mutateAsync({ params: { message: 'hi' } });
    expect(record).toMatchObject({ status: 'COMPLETED', result: { echo: 'hi' } });
    expect(result.echo.data.value).toEqual(record);
    const failed = await result.failing.mutateAsync({ params: { reason: 'OUT_OF_PAPER' } });
    expect(failed).toMatchObject({ status: 'FAILED', result: { reason: 'OUT_OF_PAPER' } });
    expect(count('execute')).toBe(2);
  });
});

describe('useTaskList (Vue)', () => {
  it('lists the journal’s tasks of the client’s scope with their records, and none of another user', async () => {
    const { options } = hookTestService();
    const storage = mapStorage();
    const journal = createTaskJournal({ storage });
    const page = (scope: string) =>
      mountComposable(() => useTaskList(), { ...options, journal, clientConfig: { scope } });
    const mine = page('user-1');
    const { id } = await mine.client.submit('echo', { message: 'mine' });
    journal.record('user-1', {
      key: 'echo',
      task: 'echo',
      id,
      mode: 'submit',
      status: 'ACCEPTED',
      startedAt: Date.now(),
    });
    await vi.waitFor(() =>
      expect(mine.result.value).toEqual([
        expect.objectContaining({
          entry: expect.objectContaining({ id, status: 'COMPLETED' }),
          record: expect.objectContaining({ id, status: 'COMPLETED' }),
        }),
      ]),
    );
    expect(page('user-2').result.value).toEqual([]);
  });

  it('is empty without a journal', async () => {
    const { options } = hookTestService();
    const { result } = mountComposable(() => useTaskList(), options);
    expect(result.value).toEqual([]);
  });
});
