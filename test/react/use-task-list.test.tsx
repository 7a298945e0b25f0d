/**
 * useTaskList against the real reference service (in-process): the journal's tasks of this client's
 * scope with their records, filtered by task and activity, polled while they run with the policy
 * (and the query) of useTaskResult, never again once terminal. On fake timers: polls are counted
 * in simulated time, never in wall-clock windows.
 */
import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createTaskJournal,
  TaskList,
  taskwireKeys,
  useSubmitTask,
  useTaskJournal,
  useTaskList,
  useTaskResult,
  useTaskStream,
} from '../../src/index.js';
import { renderHookWithTaskwire, renderWithTaskwire, withFaults } from '../../src/testing/index.js';
import { mapStorage } from '../support/map-storage.js';
import { closeJournalPages, journalPageService, openJournalPage } from '../support/journal-page.js';
import { fakeTimersAndClock, step, until } from '../support/fake-clock.js';

beforeEach(() => {
  fakeTimersAndClock();
});
afterEach(async () => {
  vi.useRealTimers();
  await closeJournalPages();
});

function setup(options: { journal?: boolean; timeScale?: number } = {}) {
  const service = journalPageService(options.timeScale ?? 0.05);
  /** Every Get Result request as `[time, id]`. */
  const polls: Array<[number, string]> = [];
  const page = openJournalPage(service, {
    journal: options.journal === false ? undefined : createTaskJournal({ storage: 'memory' }),
    onRequest: (request) => {
      const { pathname } = new URL(request.url);
      if (request.method === 'GET') polls.push([Date.now(), pathname.split('/').at(-2) ?? '']);
    },
  });
  let clock = Date.now() - 60_000;
  /** Submits a task and records it in the journal, each one a second newer than the last. */
  const start = (task: Parameters<typeof page.start>[0], params: object) =>
    page.start(task, params, (clock += 1000));
  const pollsOf = (id: string) => polls.filter(([, polled]) => polled === id).length;
  return { ...page, service, start, polls, pollsOf };
}

const fast = { minIntervalMs: 20 };

describe('useTaskList', () => {
  it('is an empty list without a journal, and asks nothing', async () => {
    const { options, start, polls } = setup({ journal: false });
    await start('echo', { message: 'hi' });
    const { result } = renderHookWithTaskwire(() => useTaskList(), options);
    expect(result.current).toEqual([]);
    await step(50);
    expect(polls).toEqual([]);
  });

  it('lists the scope’s tasks newest first with their records; `task` and `active` filter', async () => {
    const { options, start, journal, client } = setup();
    const echo = await start('echo', { message: 'hi' });
    const failing = await start('failing-task', {});
    const slow = await start('slow-report', { seconds: 600 });
    // Another scope's entry is never read, shown or polled.
    journal?.record('another-scope', {
      task: 'echo',
      id: 'not-ours',
      mode: 'submit',
      status: 'ACCEPTED',
      startedAt: Date.now(),
    });

    const { result, rerender } = renderHookWithTaskwire(
      (filter: { task?: string; active?: boolean }) => useTaskList({ ...filter, polling: fast }),
      { ...options, initialProps: {} },
    );
    expect(result.current.map(({ entry }) => entry?.id)).toEqual([slow, failing, echo]);
    expect(result.current.every(({ record }) => record === undefined)).toBe(true);

    await until(
      () =>
        expect(result.current.map(({ entry }) => entry?.status)).toEqual([
          'IN_PROGRESS',
          'FAILED',
          'COMPLETED',
        ]),
      { limitMs: 5000 },
    );
    const [slowItem, failingItem, echoItem] = result.current;
    expect(slowItem?.record?.status).toBe('IN_PROGRESS');
    expect(failingItem?.record?.status).toBe('FAILED');
    expect(echoItem?.record?.result).toEqual({ echo: 'hi' });
    // The journal itself follows the records.
    expect(journal?.entries(client.scope).map((entry) => entry.status)).toEqual([
      'IN_PROGRESS',
      'FAILED',
      'COMPLETED',
    ]);

    rerender({ task: 'echo' });
    expect(result.current.map(({ entry }) => entry?.id)).toEqual([echo]);
    rerender({ active: true });
    expect(result.current.map(({ entry }) => entry?.id)).toEqual([slow]);
    rerender({ task: 'echo', active: true });
    expect(result.current).toEqual([]);
  });

  it('polls a running task until it ends, then never again', async () => {
    const { options, start, pollsOf } = setup();
    const id = await start('render-video', { frames: 6, frameMs: 100 });
    const { result } = renderHookWithTaskwire(() => useTaskList({ polling: fast }), options);
    await until(() => expect(result.current[0]?.entry?.status).toBe('COMPLETED'), {
      limitMs: 8000,
    });
    expect(result.current[0]?.record?.progress.percent).toBe(100);
    expect(result.current[0]?.record?.usage?.credits).toBe(3);
    const atEnd = pollsOf(id);
    await step(400);
    expect(pollsOf(id)).toBe(atEnd);
  });

  it('reads a terminal entry once when no record is cached, and never polls it', async () => {
    const { options, start, pollsOf, journal, client } = setup();
    const id = await start('echo', { message: 'once' });
    await until(async () => expect((await client.getResult('echo', id)).status).toBe('COMPLETED'));
    journal?.update(client.scope, id, { status: 'COMPLETED' });
    const before = pollsOf(id);
    const { result, unmount } = renderHookWithTaskwire(
      () => useTaskList({ polling: fast }),
      options,
    );
    await until(() => expect(result.current[0]?.record?.status).toBe('COMPLETED'));
    await step(300);
    expect(pollsOf(id) - before).toBe(1);
    // Mounted again over the cached record: no request at all.
    unmount();
    renderHookWithTaskwire(() => useTaskList({ polling: fast }), options);
    await step(100);
    expect(pollsOf(id) - before).toBe(1);
  });

  it('shares one query, and one request per poll, with a useTaskResult of the same task', async () => {
    const { options, start, polls, pollsOf, queryClient, client } = setup({ timeScale: 0.5 });
    const id = await start('slow-report', { seconds: 600 });
    const { result, unmount } = renderHookWithTaskwire(
      () => ({
        list: useTaskList({ polling: { minIntervalMs: 100 } }),
        watched: useTaskResult('slow-report', id, { polling: { minIntervalMs: 100 } }),
      }),
      options,
    );
    await until(() => expect(result.current.watched.data?.status).toBe('IN_PROGRESS'));
    await step(2500);
    const query = queryClient
      .getQueryCache()
      .find({ queryKey: taskwireKeys.result(client.scope, 'slow-report', id), exact: true });
    expect(query?.getObserversCount()).toBe(2);
    expect(result.current.list[0]?.record).toBe(result.current.watched.data);
    // The service asks for a poll a second (Retry-After); two watchers must not make it two.
    const times = polls.filter(([, polled]) => polled === id).map(([time]) => time);
    expect(times.length).toBeGreaterThanOrEqual(2);
    expect(times.length).toBeLessThanOrEqual(4);
    for (let index = 1; index < times.length; index += 1) {
      expect((times[index] ?? 0) - (times[index - 1] ?? 0)).toBeGreaterThan(500);
    }
    unmount();
    const atUnmount = pollsOf(id);
    await step(1200);
    expect(pollsOf(id)).toBe(atUnmount);
  });

  it('lists what useSubmitTask started, and a dismissal removes it from the journal only', async () => {
    const { options, journal, client } = setup();
    const { result } = renderHookWithTaskwire(
      () => ({
        submit: useSubmitTask('translate-text', { resumeKey: 'translation' }),
        journal: useTaskJournal(),
        list: useTaskList({ polling: fast }),
      }),
      options,
    );
    await act(() =>
      result.current.submit.mutateAsync({ params: { text: 'Bonjour', targetLanguage: 'en' } }),
    );
    await until(() => expect(result.current.list[0]?.entry?.status).toBe('COMPLETED'), {
      limitMs: 5000,
    });
    const id = result.current.list[0]?.entry?.id ?? '';
    expect(result.current.list[0]?.entry).toMatchObject({ key: 'translation', mode: 'submit' });

    act(() => result.current.journal.remove(id));
    expect(result.current.list).toEqual([]);
    expect(journal?.entries(client.scope)).toEqual([]);
    // The task itself is still there at the service.
    expect((await client.getResult('translate-text', id)).status).toBe('COMPLETED');
  });
});

describe('useTaskList and <TaskList> when the outcome cannot be read', () => {
  it('shows a task whose reads fail for good (404) as such, not as its last status', async () => {
    const { options, journal, client, pollsOf } = setup();
    // A task the service does not know (another user's, or one it forgot).
    journal?.record(client.scope, {
      task: 'echo',
      id: 'gone-task',
      mode: 'submit',
      status: 'ACCEPTED',
      startedAt: Date.now(),
    });
    const { result } = renderHookWithTaskwire(() => useTaskList({ polling: fast }), options);
    await until(() => expect(result.current[0]?.error?.status).toBe(404));
    expect(result.current[0]?.entry?.id).toBe('gone-task');
    // Asking again will not heal it: polling stopped.
    const asked = pollsOf('gone-task');
    await step(200);
    expect(pollsOf('gone-task')).toBe(asked);
    renderWithTaskwire(<TaskList />, options);
    await until(() => screen.getByText('No longer at the service'));
    const line = screen.getByText('No longer at the service');
    expect(line.closest('li')).toHaveAttribute('data-state', 'error');
    expect(line.closest('li')).not.toHaveTextContent('Queued');
  });

  it('lists a stream start cut before its task id arrived as outcome unknown, until dismissed', async () => {
    const { options, journal, client } = setup();
    journal?.begin(client.scope, {
      key: 'render',
      task: 'render-video',
      mode: 'stream',
      startedAt: Date.now(),
    });
    const { result } = renderHookWithTaskwire(() => useTaskList(), options);
    expect(result.current).toEqual([{ start: expect.objectContaining({ key: 'render' }) }]);
    renderWithTaskwire(<TaskList />, options);
    await until(() => screen.getByText('Outcome unknown'));
    const line = screen.getByText('Outcome unknown');
    expect(line.closest('li')).toHaveAttribute('data-state', 'unknown');
    act(() => screen.getByRole('button', { name: /^Dismiss render-video/ }).click());
    expect(journal?.starts(client.scope)).toEqual([]);
    expect(screen.queryByText('Outcome unknown')).toBeNull();
  });
});

describe('useTaskList after a reload cut a stream’s start', () => {
  it('lists a useTaskStream start whose task id never arrived as outcome unknown', async () => {
    const service = journalPageService(0.05);
    // The stream's POST never answers: the page reloads before the task id arrives.
    const hanging = withFaults(service, [{ endpoint: 'stream', hang: true }]);
    const storage = mapStorage();
    const first = openJournalPage(hanging as typeof service, {
      journal: createTaskJournal({ storage }),
    });
    const stream = renderHookWithTaskwire(
      () => useTaskStream('render-video', { resumeKey: 'render' }),
      first.options,
    );
    act(() => stream.result.current.start({ frames: 5, frameMs: 100 }));
    await until(() => expect(stream.result.current.status).toBe('connecting'));
    stream.unmount();

    const second = openJournalPage(service, { journal: createTaskJournal({ storage }) });
    const { result } = renderHookWithTaskwire(() => useTaskList(), second.options);
    expect(result.current).toEqual([
      { start: expect.objectContaining({ key: 'render', task: 'render-video', mode: 'stream' }) },
    ]);
  });
});

describe('useTaskList after a stream start was refused', () => {
  it.each([
    { refusal: 'the client’s own checks', faults: [], params: { frames: 0 } },
    { refusal: 'a 429', faults: [{ endpoint: 'stream' as const, status: 429 }], params: {} },
    { refusal: 'a 503', faults: [{ endpoint: 'stream' as const, status: 503 }], params: {} },
  ])('leaves no row for a start refused by $refusal', async ({ faults, params }) => {
    const service = journalPageService(0.05);
    const storage = mapStorage();
    const page = openJournalPage(withFaults(service, faults) as typeof service, {
      journal: createTaskJournal({ storage }),
    });
    const { result } = renderHookWithTaskwire(
      () => ({
        stream: useTaskStream('render-video', { resumeKey: 'render' }),
        list: useTaskList(),
      }),
      page.options,
    );
    act(() => result.current.stream.start(params));
    await until(() => expect(result.current.stream.status).toBe('error'));
    expect(result.current.stream.taskId).toBeUndefined();
    await step(0);
    expect(result.current.list).toEqual([]);
    // Nor after a reload.
    const reloaded = openJournalPage(service, { journal: createTaskJournal({ storage }) });
    const after = renderHookWithTaskwire(() => useTaskList(), reloaded.options);
    expect(after.result.current).toEqual([]);
  });
});

describe('useTaskList after a stream start broke before any answer', () => {
  it('keeps it listed as outcome unknown: the service may have made the task', async () => {
    const service = journalPageService(0.05);
    // The service makes the task, then the connection drops before its answer reaches the page.
    const lost = withFaults(service, [{ endpoint: 'stream', lostAnswer: true }]);
    const page = openJournalPage(lost as typeof service, {
      journal: createTaskJournal({ storage: mapStorage() }),
    });
    const { result } = renderHookWithTaskwire(
      () => ({
        stream: useTaskStream('render-video', { resumeKey: 'render' }),
        list: useTaskList(),
      }),
      page.options,
    );
    act(() => result.current.stream.start({ frames: 2, frameMs: 100 }));
    await until(() => expect(result.current.stream.error?.code).toBe('network'));
    await step(0);
    expect(result.current.list).toEqual([
      { start: expect.objectContaining({ key: 'render', mode: 'stream' }) },
    ]);
  });
});

describe('the journal’s storage under useTaskList', () => {
  it('loses the entries past their age of every user once a page reads it, not only its own', async () => {
    const storage = mapStorage();
    const day = 24 * 60 * 60 * 1000;
    // Another user's tasks, stored two days ago in this browser.
    const before = createTaskJournal({ storage, now: () => Date.now() - 2 * day });
    before.record('another-user', {
      task: 'echo',
      id: 'old-task',
      mode: 'submit',
      status: 'IN_PROGRESS',
      startedAt: Date.now() - 2 * day,
    });
    expect(storage.values.has('taskwire:journal:another-user')).toBe(true);
    const page = openJournalPage(journalPageService(0.05), {
      journal: createTaskJournal({ storage }),
    });
    const { result } = renderHookWithTaskwire(() => useTaskList(), page.options);
    expect(result.current).toEqual([]);
    await step(0);
    expect(storage.values.has('taskwire:journal:another-user')).toBe(false);
  });
});
