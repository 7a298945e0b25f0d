/**
 * A server-rendered page reloaded mid-run (docs/protocol.md, "The hooks"): the server renders the
 * page with a journal that holds nothing (it has no sessionStorage; an app's module-level
 * `createTaskJournal()` falls back to memory there), the browser hydrates that HTML with a journal
 * whose storage holds the running task. The first client render must match the server's, and the
 * stream must take the task up right after hydration, with Get Result and no POST.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { act, waitFor } from '@testing-library/react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { StrictMode, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { streamDisplayStatus, TaskProgress } from '../../src/components/index.js';
import { createTaskJournal, TaskList, TaskwireProvider, useTaskStream } from '../../src/index.js';
import { renderWithTaskwire } from '../../src/testing/index.js';
import { closeJournalPages, journalPageService, openJournalPage } from '../support/journal-page.js';
import { mapStorage } from '../support/map-storage.js';

let root: Root | undefined;
afterEach(async () => {
  act(() => root?.unmount());
  root = undefined;
  document.body.replaceChildren();
  vi.restoreAllMocks();
  await closeJournalPages();
});

const scope = 'user-1';

/**
 * `children` inside the providers of `page`, as the app's root gives them. Written out here, not
 * rendered with the test kit: a server render and a hydration are no Testing Library render.
 */
function withProviders(page: ReturnType<typeof openJournalPage>, children: ReactNode) {
  return (
    <QueryClientProvider client={page.queryClient}>
      <TaskwireProvider client={page.client} journal={page.journal}>
        {children}
      </TaskwireProvider>
    </QueryClientProvider>
  );
}

/** The page: a render bar over a stream that resumes the task under `render`. */
function RenderPage({ statuses }: { statuses: string[] }) {
  const stream = useTaskStream('render-video', {
    resumeKey: 'render',
    polling: { minIntervalMs: 20 },
  });
  statuses.push(stream.status);
  return (
    <section>
      <p>{`Stream status: ${stream.status}`}</p>
      <TaskProgress
        label="Render"
        status={streamDisplayStatus(stream)}
        percent={stream.progress?.percent ?? null}
        estimatedSecondsLeft={stream.progress?.estimatedSecondsLeft ?? null}
      />
      <TaskList aria-label="Your tasks" />
    </section>
  );
}

describe('a server-rendered page with a journal entry to resume', () => {
  it.each([
    ['', false],
    [' (StrictMode, as Next.js runs in development)', true],
  ])(
    'hydrates without a mismatch, is recovering right after hydration and resumes with Get Result alone%s',
    async (_, strict) => {
      const page = (statuses: string[]) =>
        strict ? (
          <StrictMode>
            <RenderPage statuses={statuses} />
          </StrictMode>
        ) : (
          <RenderPage statuses={statuses} />
        );
      const service = journalPageService(0.2, { events: false });
      const storage = mapStorage();
      const requests: string[] = [];
      // The task started before the reload: running at the service, in the browser's journal.
      const before = openJournalPage(service, { journal: createTaskJournal({ storage }), scope });
      const started = await before.client.submit('render-video', { frames: 10, frameMs: 100 });
      before.journal?.record(scope, {
        key: 'render',
        task: 'render-video',
        id: started.id,
        mode: 'stream',
        status: 'IN_PROGRESS',
        startedAt: Date.now(),
      });

      const server = openJournalPage(service, {
        journal: createTaskJournal({ storage: 'memory' }),
        scope,
        onRequest: (request) => requests.push(`server ${request.method}`),
      });
      const serverStatuses: string[] = [];
      const html = renderToString(withProviders(server, page(serverStatuses)));
      expect(new Set(serverStatuses)).toEqual(new Set(['idle']));
      expect(html).toContain('Stream status: idle');

      const browser = openJournalPage(service, {
        journal: createTaskJournal({ storage }),
        scope,
        onRequest: (request) => requests.push(`${request.method} ${new URL(request.url).pathname}`),
      });
      const container = document.createElement('div');
      container.innerHTML = html;
      document.body.append(container);
      const recoverable = vi.fn();
      const consoleErrors = vi.spyOn(console, 'error');
      const statuses: string[] = [];
      await act(async () => {
        root = hydrateRoot(container, withProviders(browser, page(statuses)), {
          onRecoverableError: recoverable,
        });
      });
      expect(recoverable).not.toHaveBeenCalled();
      expect(consoleErrors).not.toHaveBeenCalled();
      // The hydrating render matched the server's; the next one, right after, took the task up.
      const hydrating = statuses.filter((status) => status === 'idle').length;
      expect(statuses.slice(0, hydrating)).toEqual(strict ? ['idle', 'idle'] : ['idle']);
      expect(statuses.slice(hydrating)).not.toContain('idle');
      expect(container.textContent).toContain('Stream status: recovering');
      // The list, empty in the server's HTML, lists the journal's task once hydrated.
      await waitFor(() => expect(container.textContent).toContain('render-video'));

      await waitFor(() => expect(container.textContent).toContain('Stream status: completed'), {
        timeout: 10_000,
      });
      expect(statuses).not.toContain('connecting');
      expect(statuses).not.toContain('streaming');
      expect(requests.filter((line) => line.startsWith('server'))).toEqual([]);
      // Only the read of the task's log, which this service (0.3) answers 404: no task is posted.
      expect(requests.filter((line) => line.startsWith('POST'))).toEqual([
        'POST /workflows/events',
      ]);
      expect(requests).toContain(`GET /workflows/render-video/${started.id}/result`);
      expect(recoverable).not.toHaveBeenCalled();
      expect(consoleErrors).not.toHaveBeenCalled();
    },
  );

  it('takes the task up from the first render when nothing is hydrated (a client-only render)', async () => {
    const service = journalPageService(0.2, { events: false });
    const storage = mapStorage();
    const before = openJournalPage(service, { journal: createTaskJournal({ storage }), scope });
    const started = await before.client.submit('render-video', { frames: 4, frameMs: 50 });
    before.journal?.record(scope, {
      key: 'render',
      task: 'render-video',
      id: started.id,
      mode: 'stream',
      status: 'IN_PROGRESS',
      startedAt: Date.now(),
    });
    const browser = openJournalPage(service, { journal: createTaskJournal({ storage }), scope });
    const statuses: string[] = [];
    const { container } = renderWithTaskwire(<RenderPage statuses={statuses} />, browser.options);
    expect(statuses[0]).toBe('recovering');
    await waitFor(() => expect(container.textContent).toContain('Stream status: completed'), {
      timeout: 10_000,
    });
    expect(statuses).not.toContain('idle');
  });
});
