/**
 * Tasks outlive the page: a "reload" here unmounts everything, drops the QueryClient and the
 * client, and mounts a new provider with a new journal object on the same storage, against the same
 * reference service (which, like a real one, kept running the task).
 */
import { act, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createTaskJournal,
  useJournalEntry,
  useSubmitTask,
  useTaskResult,
  useTaskStream,
} from '../../src/index.js';
import { renderHookWithTaskwire } from '../../src/testing/index.js';
import { closeJournalPages, journalPageService, openJournalPage } from '../support/journal-page.js';
import { mapStorage } from '../support/map-storage.js';

afterEach(closeJournalPages);

function setup(timeScale = 0.05) {
  // A service without resumable streams (0.3): a stream is taken up with Get Result (resumable
  // ones: use-task-stream-resumable.test.tsx).
  const service = journalPageService(timeScale, { events: false });
  const storage = mapStorage();
  const requests: string[] = [];
  /** A fresh page: a new client, QueryClient and journal object on the same storage. */
  const page = (options: { journal?: boolean; keepParams?: boolean } = {}) =>
    openJournalPage(service, {
      journal:
        options.journal === false
          ? undefined
          : createTaskJournal({ storage, keepParams: options.keepParams ?? false }),
      onRequest: (request) => {
        requests.push(`${request.method} ${new URL(request.url).pathname}`);
      },
    });
  // The task's own POSTs: a reloaded page first tries the multiplexed read of its logs, which a
  // service without resumable streams answers 404 (docs/protocol.md, "Resumable streams (0.4)").
  const posts = () =>
    requests.filter((line) => line.startsWith('POST') && !line.endsWith('/workflows/events'))
      .length;
  return { service, storage, requests, page, posts };
}

describe('useTaskStream with resumeKey', () => {
  it('keeps the running task in the journal when start is pressed again with the same params', async () => {
    const { page, posts } = setup(0.2);
    const first = page();
    const before = renderHookWithTaskwire(
      () => useTaskStream('render-video', { resumeKey: 'render' }),
      first.options,
    );
    const params = { frames: 10, frameMs: 100 };
    act(() => before.result.current.start(params));
    await waitFor(() => expect(before.result.current.progress?.percent ?? 0).toBeGreaterThan(0));
    const id = before.result.current.taskId;
    // A second press (a double click): the run goes on, and so must its entry.
    act(() => before.result.current.start({ ...params }));
    expect(before.result.current.taskId).toBe(id);
    before.unmount();
    first.queryClient.clear();

    const second = page();
    const after = renderHookWithTaskwire(
      () => useTaskStream('render-video', { resumeKey: 'render' }),
      second.options,
    );
    expect(after.result.current.status).toBe('recovering');
    expect(after.result.current.taskId).toBe(id);
    await waitFor(() => expect(after.result.current.status).toBe('completed'), { timeout: 5000 });
    expect(posts()).toBe(1);
  });

  it('comes back recovering after a reload mid-stream and reaches the outcome with no second POST', async () => {
    const { page, posts } = setup(0.2);
    const first = page();
    const before = renderHookWithTaskwire(
      () => useTaskStream('render-video', { resumeKey: 'render' }),
      first.options,
    );
    act(() => before.result.current.start({ frames: 10, frameMs: 100 }));
    await waitFor(() => expect(before.result.current.progress?.percent ?? 0).toBeGreaterThan(0));
    expect(before.result.current.status).toBe('streaming');
    const id = before.result.current.taskId;
    before.unmount();
    first.queryClient.clear();

    const second = page();
    const statuses: string[] = [];
    const after = renderHookWithTaskwire(() => {
      const stream = useTaskStream('render-video', {
        resumeKey: 'render',
        polling: { minIntervalMs: 20 },
      });
      statuses.push(stream.status);
      return stream;
    }, second.options);
    expect(statuses[0]).toBe('recovering');
    expect(after.result.current.taskId).toBe(id);
    await waitFor(() => expect(after.result.current.status).toBe('completed'), { timeout: 5000 });
    expect(statuses).not.toContain('connecting');
    expect(statuses).not.toContain('streaming');
    const record = await second.client.getResult('render-video', id ?? '');
    expect(after.result.current.result).toEqual(record.result);
    expect(after.result.current.usage).toEqual(record.usage);
    expect(posts()).toBe(1);
  });

  it('shows the outcome after a reload that comes once the stream has ended', async () => {
    const { page, posts } = setup();
    const first = page();
    const before = renderHookWithTaskwire(
      () => useTaskStream('render-video', { resumeKey: 'render' }),
      first.options,
    );
    act(() => before.result.current.start({ frames: 3, frameMs: 10 }));
    await waitFor(() => expect(before.result.current.status).toBe('completed'));
    const { result } = before.result.current;
    before.unmount();

    const second = page();
    const after = renderHookWithTaskwire(
      () => useTaskStream('render-video', { resumeKey: 'render' }),
      second.options,
    );
    await waitFor(() => expect(after.result.current.status).toBe('completed'));
    expect(after.result.current.result).toEqual(result);
    expect(posts()).toBe(1);
  });

  it('stores nothing without a journal', async () => {
    const { page, storage } = setup();
    const first = page({ journal: false });
    const view = renderHookWithTaskwire(
      () => useTaskStream('echo', { resumeKey: 'echo' }),
      first.options,
    );
    act(() => view.result.current.start({ message: 'hi' }));
    await waitFor(() => expect(view.result.current.status).toBe('completed'));
    expect(storage.values.size).toBe(0);
  });
});

describe('useSubmitTask with resumeKey', () => {
  it('lets a submit flow find its task again after a reload and follow it to the end', async () => {
    const { page, posts } = setup();
    const first = page();
    const before = renderHookWithTaskwire(
      () => useSubmitTask('render-video', { resumeKey: 'video' }),
      first.options,
    );
    act(() => before.result.current.mutate({ params: { frames: 4, frameMs: 50 } }));
    await waitFor(() => expect(before.result.current.data?.id).toEqual(expect.any(String)));
    const id = before.result.current.data?.id;
    before.unmount();

    const second = page();
    const after = renderHookWithTaskwire(() => {
      const entry = useJournalEntry('video');
      return {
        entry,
        record: useTaskResult('render-video', entry?.id, { polling: { minIntervalMs: 20 } }),
      };
    }, second.options);
    expect(after.result.current.entry).toMatchObject({ id, mode: 'submit', task: 'render-video' });
    await waitFor(() => expect(after.result.current.record.data?.status).toBe('COMPLETED'), {
      timeout: 5000,
    });
    await waitFor(() => expect(after.result.current.entry?.status).toBe('COMPLETED'));
    expect(posts()).toBe(1);
  });
});

describe('a journal with keepParams, across a reload', () => {
  const params = { text: 'Bonjour, what the user typed', targetLanguage: 'fr' };

  it('gives the page the params a submitted task was started with', async () => {
    const { page, storage } = setup();
    const first = page({ keepParams: true });
    const before = renderHookWithTaskwire(
      () => useSubmitTask('translate-text', { resumeKey: 'translation' }),
      first.options,
    );
    await act(() => before.result.current.mutateAsync({ params }));
    before.unmount();

    const second = page({ keepParams: true });
    const after = renderHookWithTaskwire(() => useJournalEntry('translation'), second.options);
    expect(after.result.current?.params).toEqual(params);
    expect(storage.values.get('taskwire:journal:journal-page-user')).toContain(
      'what the user typed',
    );
  });

  it('gives the page the params a stream was started with, after a reload mid-stream', async () => {
    const { page } = setup(0.2);
    const first = page({ keepParams: true });
    const before = renderHookWithTaskwire(
      () => useTaskStream('render-video', { resumeKey: 'render' }),
      first.options,
    );
    const started = { frames: 10, frameMs: 100 };
    act(() => before.result.current.start(started));
    await waitFor(() => expect(before.result.current.status).toBe('streaming'));
    before.unmount();

    const second = page({ keepParams: true });
    const after = renderHookWithTaskwire(
      () => ({
        entry: useJournalEntry('render'),
        stream: useTaskStream('render-video', { resumeKey: 'render' }),
      }),
      second.options,
    );
    expect(after.result.current.stream.status).toBe('recovering');
    expect(after.result.current.entry?.params).toEqual(started);
  });

  it('keeps no params past the answer without it', async () => {
    const { page, storage } = setup();
    const first = page();
    const before = renderHookWithTaskwire(
      () => useSubmitTask('translate-text', { resumeKey: 'translation' }),
      first.options,
    );
    await act(() => before.result.current.mutateAsync({ params }));
    const after = renderHookWithTaskwire(() => useJournalEntry('translation'), page().options);
    expect(after.result.current).toBeDefined();
    expect(after.result.current?.params).toBeUndefined();
    expect(storage.values.get('taskwire:journal:journal-page-user')).not.toContain(
      'what the user typed',
    );
  });

  it('shows no stored params that fail the task’s params schema, and keeps the entry', async () => {
    const { page, storage } = setup();
    const first = page({ keepParams: true });
    const before = renderHookWithTaskwire(
      () => useSubmitTask('translate-text', { resumeKey: 'translation' }),
      first.options,
    );
    const { id } = await act(() => before.result.current.mutateAsync({ params }));
    // Stored by an older version of the app, whose form had other fields.
    const key = 'taskwire:journal:journal-page-user';
    storage.values.set(
      key,
      (storage.values.get(key) ?? '').replace('"targetLanguage":"fr"', '"language":"French"'),
    );

    const after = renderHookWithTaskwire(
      () => useJournalEntry('translation'),
      page({ keepParams: true }).options,
    );
    expect(after.result.current).toMatchObject({ id, task: 'translate-text' });
    expect(after.result.current?.params).toBeUndefined();
  });
});
