/**
 * Tasks outlive the page under taskwire/vue too: a "reload" unmounts the page, drops its QueryClient
 * and client, and mounts a new one with a new journal object on the same storage, against the same
 * reference service (which, like a real one, kept running the task).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTaskJournal, useTaskList, useTaskStream } from '../../src/vue/index.js';
import { closeHookTestServices, hookTestService } from '../support/hook-test-service.js';
import { mapStorage } from '../support/map-storage.js';
import { mountComposable } from '../support/vue-page.js';

afterEach(closeHookTestServices);

function setup(timeScale: number, events?: false) {
  const setUp = hookTestService({ timeScale, ...(events === false ? { events } : {}) });
  const storage = mapStorage();
  /** A fresh page: a new client, QueryClient and journal object on the same storage. */
  const page = <Result>(composable: () => Result, render?: (result: Result) => unknown) =>
    mountComposable(
      composable,
      {
        service: setUp.service,
        journal: createTaskJournal({ storage }),
        clientConfig: { scope: 'user-1' },
      },
      render,
    );
  return { ...setUp, page };
}

describe('useTaskStream with resumeKey (Vue)', () => {
  it('keeps the running task in the journal when start is pressed again with the same params', async () => {
    const { page, count } = setup(0.2, false);
    const before = page(() => useTaskStream('render-video', { resumeKey: 'render' }));
    const params = { frames: 10, frameMs: 100 };
    before.result.start(params);
    await vi.waitFor(() => expect(before.result.progress.value?.percent ?? 0).toBeGreaterThan(0), {
      timeout: 5000,
    });
    const id = before.result.taskId.value;
    // A second press (a double click): the run goes on, and so must its entry.
    before.result.start({ ...params });
    before.wrapper.unmount();
    before.queryClient.clear();

    const after = page(() => useTaskStream('render-video', { resumeKey: 'render' }));
    await vi.waitFor(() => expect(after.result.status.value).toBe('recovering'), { timeout: 5000 });
    expect(after.result.taskId.value).toBe(id);
    await vi.waitFor(() => expect(after.result.status.value).toBe('completed'), { timeout: 5000 });
    expect(count('stream')).toBe(1);
  });

  it('comes back recovering after a reload mid-stream and reaches the outcome with no second POST', async () => {
    // A service without resumable streams (0.3): the outcome is read with Get Result.
    const { page, count } = setup(0.2, false);
    const before = page(() => useTaskStream('render-video', { resumeKey: 'render' }));
    before.result.start({ frames: 10, frameMs: 100 });
    await vi.waitFor(() => expect(before.result.progress.value?.percent ?? 0).toBeGreaterThan(0), {
      timeout: 5000,
    });
    expect(before.result.status.value).toBe('streaming');
    const id = before.result.taskId.value;
    before.wrapper.unmount();
    before.queryClient.clear();

    const statuses: string[] = [];
    const after = page(
      () => useTaskStream('render-video', { resumeKey: 'render', polling: { minIntervalMs: 20 } }),
      (stream) => statuses.push(stream.status.value),
    );
    await vi.waitFor(() => expect(after.result.status.value).toBe('recovering'), { timeout: 5000 });
    expect(after.result.taskId.value).toBe(id);
    await vi.waitFor(() => expect(after.result.status.value).toBe('completed'), { timeout: 5000 });
    expect(statuses).not.toContain('connecting');
    expect(statuses).not.toContain('streaming');
    const record = await after.client.getResult('render-video', id ?? '');
    expect(after.result.result.value).toEqual(record.result);
    expect(count('stream')).toBe(1);
  });

  it('takes the task up after a reload from its first message: every event once, with payloads, and one POST', async () => {
    const { page, count } = setup(0.2);
    const before = page(() => useTaskStream('render-video', { resumeKey: 'render' }));
    before.result.start({ frames: 8, frameMs: 50 });
    await vi.waitFor(() => expect(before.result.progress.value?.percent ?? 0).toBeGreaterThan(0), {
      timeout: 5000,
    });
    before.wrapper.unmount();
    before.queryClient.clear();

    const seen: { type: string; frame?: unknown }[] = [];
    const after = page(() =>
      useTaskStream('render-video', { resumeKey: 'render', onEvent: (event) => seen.push(event) }),
    );
    await vi.waitFor(() => expect(after.result.status.value).toBe('completed'), { timeout: 5000 });
    const frames = seen.filter((event) => event.type === 'event.frame-rendered');
    expect(frames.map((event) => event.frame)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(count('stream')).toBe(1);
    expect(count('result')).toBe(0);
  });

  it('lists the task in useTaskList, and shows the outcome after a reload once it has ended', async () => {
    const { page, count } = setup(0.05);
    const before = page(() => ({
      stream: useTaskStream('render-video', { resumeKey: 'render' }),
      list: useTaskList(),
    }));
    before.result.stream.start({ frames: 3, frameMs: 10 });
    await vi.waitFor(() => expect(before.result.stream.status.value).toBe('completed'), {
      timeout: 5000,
    });
    const id = before.result.stream.taskId.value;
    await vi.waitFor(() =>
      expect(before.result.list.value).toEqual([
        expect.objectContaining({ entry: expect.objectContaining({ id, status: 'COMPLETED' }) }),
      ]),
    );
    const result = before.result.stream.result.value;
    before.wrapper.unmount();

    const after = page(() => useTaskStream('render-video', { resumeKey: 'render' }));
    await vi.waitFor(() => expect(after.result.status.value).toBe('completed'), { timeout: 5000 });
    expect(after.result.result.value).toEqual(result);
    expect(count('stream')).toBe(1);
  });
});
