/**
 * useCompletionNotice against the real reference service (in-process): a journal task that ends
 * while the page is hidden is noticed once, by a system notification when the permission is
 * granted, else by a count before the document title; the journal's running tasks are polled while
 * hidden. jsdom has no Notification API, so a fake one records what it was given. On fake timers:
 * the service's clock and the polls advance in simulated time, never in wall-clock windows.
 */
import { act, render, screen } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createTaskJournal,
  requestNotificationPermission,
  TaskwireProvider,
  useCompletionNotice,
  useTaskList,
  type TaskJournal,
} from '../../src/index.js';
import { renderHookWithTaskwire } from '../../src/testing/index.js';
import { closeJournalPages, journalPageService, openJournalPage } from '../support/journal-page.js';
import { fakeTimersAndClock, step, until } from '../support/fake-clock.js';

/** What the fake Notification API saw. */
const shown: Array<{ title: string; options: NotificationOptions | undefined }> = [];
let permission: NotificationPermission = 'default';
let permissionAnswer: NotificationPermission = 'granted';
class FakeNotification {
  static get permission() {
    return permission;
  }
  static requestPermission() {
    return Promise.resolve(permissionAnswer);
  }
  onclick: (() => void) | null = null;
  constructor(title: string, options?: NotificationOptions) {
    shown.push({ title, options });
  }
  close() {}
}

/** Sets `document.visibilityState` and tells the page, as a browser does. */
function setVisibility(state: 'hidden' | 'visible') {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  act(() => {
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
  });
}

const originalTitle = 'My app';
beforeEach(() => {
  fakeTimersAndClock();
  shown.length = 0;
  permission = 'default';
  (globalThis as Record<string, unknown>).Notification = FakeNotification;
  document.title = originalTitle;
});
afterEach(async () => {
  vi.useRealTimers();
  delete (globalThis as Record<string, unknown>).Notification;
  // Back to jsdom's own getter ('visible').
  delete (document as unknown as Record<string, unknown>).visibilityState;
  document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
  await closeJournalPages();
});

function setup(options: { journal?: boolean; retryAfter?: boolean } = {}) {
  const gets: string[] = [];
  const page = openJournalPage(journalPageService(0.05), {
    journal: options.journal === false ? undefined : createTaskJournal({ storage: 'memory' }),
    onRequest: (request) => {
      if (request.method === 'GET') gets.push(new URL(request.url).pathname);
    },
    // The service hints at least a second; without the hint the test's schedule is the policy's.
    retryAfter: options.retryAfter !== false,
  });
  return { ...page, gets };
}

const fast = { minIntervalMs: 20, maxIntervalMs: 40 };
const statusOf = (journal: TaskJournal | undefined, scope: string, id: string) =>
  journal?.entries(scope).find((entry) => entry.id === id)?.status;

describe('useCompletionNotice', () => {
  it('shows one notification for a task that ends while hidden, not again on a later poll or remount', async () => {
    permission = 'granted';
    const { options, start, journal, client } = setup();
    const id = await start('render-video', { frames: 6, frameMs: 100 });
    setVisibility('hidden');
    const first = renderHookWithTaskwire(() => useCompletionNotice({ polling: fast }), options);
    // A second hook mounted at once notices the same task, and must not show it twice.
    const second = renderHookWithTaskwire(() => useCompletionNotice({ polling: fast }), options);
    await until(() => expect(statusOf(journal, client.scope, id)).toBe('COMPLETED'));
    await until(() => expect(shown).toHaveLength(1));
    expect(shown[0]).toEqual({
      title: 'render-video finished',
      options: { body: 'The task is done.', tag: id },
    });
    expect(document.title).toBe(originalTitle);

    await step(150);
    first.unmount();
    second.unmount();
    renderHookWithTaskwire(() => useCompletionNotice({ polling: fast }), options);
    await step(150);
    expect(shown).toHaveLength(1);
  });

  it('says "failed" for a task that fails while hidden', async () => {
    permission = 'granted';
    const { options, start, journal, client } = setup();
    const id = await start('failing-task', {});
    setVisibility('hidden');
    renderHookWithTaskwire(() => useCompletionNotice({ polling: fast }), options);
    await until(() => expect(statusOf(journal, client.scope, id)).toBe('FAILED'));
    await until(() => expect(shown.map(({ title }) => title)).toEqual(['failing-task failed']));
  });

  it('counts tasks in the title without the permission, and restores it when visible', async () => {
    const { options, start } = setup();
    await start('render-video', { frames: 4, frameMs: 100 });
    await start('failing-task', {});
    setVisibility('hidden');
    renderHookWithTaskwire(() => useCompletionNotice({ polling: fast }), options);
    await until(() => expect(document.title).toBe(`(2) ${originalTitle}`));
    expect(shown).toEqual([]);
    setVisibility('visible');
    expect(document.title).toBe(originalTitle);
  });

  it('shows nothing for a task that ends while the page is visible', async () => {
    permission = 'granted';
    const { options, start, journal, client } = setup();
    const id = await start('render-video', { frames: 4, frameMs: 100 });
    renderHookWithTaskwire(() => useCompletionNotice({ polling: fast }), options);
    await until(() => expect(statusOf(journal, client.scope, id)).toBe('COMPLETED'));
    // Hidden afterwards: the task had ended already, no news.
    setVisibility('hidden');
    await step(100);
    expect(shown).toEqual([]);
    expect(document.title).toBe(originalTitle);
  });

  it('does nothing with `enabled: false`, and polls nothing while hidden', async () => {
    permission = 'granted';
    const { options, start, journal, client, gets } = setup();
    const id = await start('render-video', { frames: 4, frameMs: 100 });
    setVisibility('hidden');
    renderHookWithTaskwire(() => useCompletionNotice({ enabled: false, polling: fast }), options);
    await step(300);
    expect(gets).toEqual([]);
    // Ended by another means (here the journal directly): still nothing.
    act(() => journal?.update(client.scope, id, { status: 'COMPLETED' }));
    await step(50);
    expect(shown).toEqual([]);
    expect(document.title).toBe(originalTitle);
  });

  it('does nothing without a journal', async () => {
    permission = 'granted';
    const { options, start, gets } = setup({ journal: false });
    await start('render-video', { frames: 4, frameMs: 100 });
    setVisibility('hidden');
    renderHookWithTaskwire(() => useCompletionNotice({ polling: fast }), options);
    await step(200);
    expect(gets).toEqual([]);
    expect(shown).toEqual([]);
  });

  it('keeps polling a running task while the page is hidden, at the ceiling', async () => {
    const { options, start, gets } = setup({ retryAfter: false });
    await start('slow-report', { seconds: 600 });
    const polling = { minIntervalMs: 20, maxIntervalMs: 60 };
    renderHookWithTaskwire(() => useCompletionNotice({ polling }), options);
    await until(() => expect(gets.length).toBeGreaterThan(0));
    setVisibility('hidden');
    await step(100);
    const before = gets.length;
    await step(600);
    const polled = gets.length - before;
    // Every 60 ms (the ceiling), give or take a timer: neither stopped nor at the 20 ms floor.
    expect(polled).toBeGreaterThanOrEqual(4);
    expect(polled).toBeLessThanOrEqual(14);
  });
});

describe('useCompletionNotice across a log-out and log-in', () => {
  it('never tells the new user of the previous user’s task', async () => {
    permission = 'granted';
    const service = journalPageService(0.05);
    const journal = createTaskJournal({ storage: 'memory' });
    const alice = openJournalPage(service, { journal, scope: 'user-alice' });
    const bob = openJournalPage(service, { journal, scope: 'user-bob' });
    const aliceTask = await alice.start('render-video', { frames: 40, frameMs: 1000 });
    function Page() {
      useCompletionNotice({ polling: fast });
      const items = useTaskList({ polling: fast });
      return <p data-testid="page">{items.map((item) => item.entry?.id ?? '').join()}</p>;
    }
    // Written out: the sign-in swaps this provider's client in place; the kit's keeps its own.
    const tree = (client: typeof alice.client) => (
      <QueryClientProvider client={alice.queryClient}>
        <TaskwireProvider client={client} journal={journal}>
          <Page />
        </TaskwireProvider>
      </QueryClientProvider>
    );
    const view = render(tree(alice.client));
    await until(() => expect(screen.getByTestId('page')).toHaveTextContent(aliceTask));
    await step(50);
    // Still running when Alice leaves: seen running, so its end would be news to her.
    expect((await alice.client.getResult('render-video', aliceTask)).status).toBe('IN_PROGRESS');
    // Alice signs out and Bob in, in the same tab; then the page is hidden while her task ends.
    view.rerender(tree(bob.client));
    setVisibility('hidden');
    await step(3000);
    expect(await alice.client.getResult('render-video', aliceTask)).toMatchObject({
      status: 'COMPLETED',
    });
    expect(screen.getByTestId('page')).toHaveTextContent(/^$/);
    expect(shown).toEqual([]);
    expect(document.title).toBe(originalTitle);
  });
});

describe('requestNotificationPermission', () => {
  it('resolves to the answer, and to "denied" without the API', async () => {
    permissionAnswer = 'granted';
    await expect(requestNotificationPermission()).resolves.toBe('granted');
    permissionAnswer = 'denied';
    await expect(requestNotificationPermission()).resolves.toBe('denied');
    delete (globalThis as Record<string, unknown>).Notification;
    await expect(requestNotificationPermission()).resolves.toBe('denied');
  });
});
