/**
 * One task, one truth on a page (docs/protocol.md, "The hooks"): while a stream runs, it writes its
 * latest record into the cache entry that `useTaskResult`, `useTaskList` and `<TaskList>` read, so
 * a list or a result beside the stream's bar shows the stream's progress, not that of their last
 * poll. The readers here poll once a minute, so only the stream can move them.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createTaskJournal,
  TaskList,
  useTaskList,
  useTaskResult,
  useTaskStream,
} from '../../src/index.js';
import {
  createReferenceService,
  demoTasks,
  type ReferenceService,
} from '../../src/reference/index.js';
import { renderWithTaskwire, scriptTask } from '../../src/testing/index.js';
import { closeJournalPages, openJournalPage } from '../support/journal-page.js';
import { mapStorage } from '../support/map-storage.js';

const services: ReferenceService[] = [];
afterEach(async () => {
  await closeJournalPages();
  await Promise.all(services.splice(0).map((service) => service.close()));
});

/** 10 % at once, 25 % a while later (after the readers' first read), then a hold past the test. */
const hold = scriptTask('hold', [
  { progress: [10, 40] },
  { wait: 300 },
  { progress: [25, 30] },
  { wait: 1e9 },
  { complete: null },
]);
/** The readers poll once a minute: within the test, only the stream's writes can move them. */
const slow = { minIntervalMs: 60_000, maxIntervalMs: 60_000 };

function openPage() {
  const service = createReferenceService({ timeScale: 1, tasks: [...demoTasks, hold] });
  services.push(service);
  const gets: string[] = [];
  const page = openJournalPage(service, {
    journal: createTaskJournal({ storage: mapStorage() }),
    scope: 'user-1',
    retryAfter: false,
    onRequest: (request) => {
      if (request.method === 'GET') gets.push(new URL(request.url).pathname);
    },
  });
  return { ...page, gets };
}

function Page() {
  const stream = useTaskStream('hold' as 'echo', { resumeKey: 'hold' });
  const result = useTaskResult('hold' as 'echo', stream.taskId, { polling: slow });
  const [listed] = useTaskList({ polling: slow });
  return (
    <>
      <button type="button" onClick={() => stream.start({} as { message: string })}>
        Start
      </button>
      <p>{`Stream: ${stream.status} ${stream.progress?.percent ?? '-'}`}</p>
      <p>{`Result: ${result.data?.status ?? '-'} ${result.data?.progress.percent ?? '-'}`}</p>
      <p>{`Listed: ${listed?.record?.progress.percent ?? '-'}`}</p>
      <TaskList polling={slow} aria-label="Tasks" />
    </>
  );
}

describe('a running stream and the other views of its task', () => {
  it('show the same progress: useTaskResult, useTaskList and <TaskList> follow the stream', async () => {
    const page = openPage();
    renderWithTaskwire(<Page />, page.options);
    act(() => screen.getByRole('button', { name: 'Start' }).click());
    await waitFor(() => expect(screen.getByText('Stream: streaming 25')).toBeInTheDocument(), {
      timeout: 5000,
    });
    await waitFor(() => {
      expect(screen.getByText('Result: IN_PROGRESS 25')).toBeInTheDocument();
      expect(screen.getByText('Listed: 25')).toBeInTheDocument();
    });
    const list = screen.getByRole('list', { name: 'Tasks' });
    expect(within(list).getByText('25% done')).toBeInTheDocument();
    expect(screen.getByText('Stream: streaming 25')).toBeInTheDocument();
    // The views read no more than once each: the progress came from the stream.
    expect(page.gets.length).toBeLessThanOrEqual(1);
  });
});
