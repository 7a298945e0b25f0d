/**
 * Recovering is not reconnecting (docs/protocol.md, "The hooks"): a stream that broke, or a page
 * reloaded mid-run, reads its task with Get Result; while those reads answer, the bar shows a
 * running task with the record's percent and time left, and only while they fail does it say
 * "Reconnecting…".
 */
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { streamDisplayStatus, TaskProgress } from '../../src/components/index.js';
import { createTaskJournal, useTaskStream } from '../../src/index.js';
import { demoTasks } from '../../src/reference/index.js';
import { renderWithTaskwire, scriptTask } from '../../src/testing/index.js';
import { closeHookTestServices, hookTestService } from '../support/hook-test-service.js';
import { closeJournalPages, journalPageService, openJournalPage } from '../support/journal-page.js';
import { mapStorage } from '../support/map-storage.js';
import { withoutRetryAfter } from '../support/without-retry-after.js';

afterEach(async () => {
  await closeHookTestServices();
  await closeJournalPages();
});

/** Fast polls: the service's `Retry-After` (a second at least) is taken off the answers below. */
const polling = { minIntervalMs: 10, maxIntervalMs: 20, maxBackoffMs: 20 };

/** One line per render: the stream's status, the bar's state and the figure it shows. */
function RenderBar({
  task,
  seen,
  resumeKey,
}: {
  task: 'hold' | 'render-video';
  seen: string[];
  resumeKey?: string;
}) {
  const stream = useTaskStream(task as 'render-video', {
    polling,
    ...(resumeKey === undefined ? {} : { resumeKey }),
  });
  const display = streamDisplayStatus(stream);
  seen.push(`${stream.status} ${display} ${stream.progress?.percent ?? '-'}`);
  return (
    <>
      <button type="button" onClick={() => stream.start({ frames: 20, frameMs: 40 })}>
        Start
      </button>
      <TaskProgress
        label="Render"
        status={display}
        percent={stream.progress?.percent ?? null}
        estimatedSecondsLeft={stream.progress?.estimatedSecondsLeft ?? null}
      />
    </>
  );
}

describe('streamDisplayStatus of a recovering stream', () => {
  it('reads running, with the record’s percent and time left, while Get Result answers', async () => {
    // Progress to 40 % with 30 s left, then a hold far longer than the test: the record stays put.
    const hold = scriptTask('hold', [{ progress: [40, 30] }, { wait: 1e9 }, { complete: null }]);
    // A service without resumable streams (0.3): a broken stream is read with Get Result.
    const setUp = hookTestService({
      events: false,
      tasks: [...demoTasks, hold],
      faults: [{ endpoint: 'stream', cutAfterEvents: 1 }],
    });
    const service = {
      ...setUp.service,
      fetch: async (request: Request) => withoutRetryAfter(await setUp.service.fetch(request)),
    };
    const seen: string[] = [];
    renderWithTaskwire(<RenderBar task="hold" seen={seen} />, { ...setUp.options, service });
    act(() => screen.getByRole('button', { name: 'Start' }).click());
    await waitFor(() => expect(setUp.count('result')).toBeGreaterThanOrEqual(2));
    await waitFor(() => expect(seen.at(-1)).toBe('recovering running 40'));
    const bar = screen.getByRole('progressbar', { name: 'Render' });
    expect(bar).toHaveAttribute('data-state', 'running');
    expect(bar).toHaveAttribute('aria-valuenow', '40');
    expect(bar.getAttribute('aria-valuetext')).toMatch(/^40 percent, about 30 seconds left$/);
    expect(seen.filter((line) => line.startsWith('recovering'))).not.toContainEqual(
      expect.stringContaining('reconnecting'),
    );
  });

  it('reads reconnecting only while the reads fail, and running again once one answers', async () => {
    const hold = scriptTask('hold', [{ progress: [40, 30] }, { wait: 1e9 }, { complete: null }]);
    // The first read answers, the second fails, the third answers the very same record again.
    // A service without resumable streams (0.3): a broken stream is read with Get Result.
    const setUp = hookTestService({
      events: false,
      tasks: [...demoTasks, hold],
      faults: [
        { endpoint: 'stream', cutAfterEvents: 1 },
        { endpoint: 'result', request: 2, status: 503, reason: 'SERVICE_UNAVAILABLE' },
      ],
    });
    const service = {
      ...setUp.service,
      fetch: async (request: Request) => withoutRetryAfter(await setUp.service.fetch(request)),
    };
    const seen: string[] = [];
    renderWithTaskwire(<RenderBar task="hold" seen={seen} />, { ...setUp.options, service });
    act(() => screen.getByRole('button', { name: 'Start' }).click());
    await waitFor(() => expect(seen).toContain('recovering reconnecting 40'));
    await waitFor(() => expect(setUp.count('result')).toBeGreaterThanOrEqual(3));
    await waitFor(() => expect(seen.at(-1)).toBe('recovering running 40'));
    const recovering = seen.filter((line) => line.startsWith('recovering'));
    const failedAt = recovering.indexOf('recovering reconnecting 40');
    expect(recovering.slice(0, failedAt)).toContain('recovering running 40');
    expect(screen.getByRole('progressbar', { name: 'Render' })).toHaveAttribute(
      'data-state',
      'running',
    );
  });

  it('shows a page reloaded mid-run as running, never reconnecting, while every poll answers', async () => {
    const service = journalPageService(0.2, { events: false });
    const storage = mapStorage();
    const page = () =>
      openJournalPage(service, {
        journal: createTaskJournal({ storage }),
        scope: 'user-1',
        retryAfter: false,
      });
    const first = page();
    const before: string[] = [];
    const view = renderWithTaskwire(
      <RenderBar task="render-video" seen={before} resumeKey="render" />,
      first.options,
    );
    act(() => screen.getByRole('button', { name: 'Start' }).click());
    await waitFor(() => expect(before.at(-1)).toMatch(/^streaming running [1-9]/));
    view.unmount();
    first.queryClient.clear();

    const seen: string[] = [];
    const second = page();
    renderWithTaskwire(
      <RenderBar task="render-video" seen={seen} resumeKey="render" />,
      second.options,
    );
    await waitFor(() => expect(seen.at(-1)).toMatch(/^completed completed 100$/), {
      timeout: 10_000,
    });
    const recovering = seen.filter((line) => line.startsWith('recovering'));
    expect(recovering.length).toBeGreaterThan(0);
    expect(recovering.filter((line) => !line.startsWith('recovering running'))).toEqual([]);
    // The record's percent shows while it runs: some render between the first and the last.
    expect(recovering.some((line) => /^recovering running [1-9]/.test(line))).toBe(true);
  });
});
