/**
 * Two "tabs" (docs/protocol.md, "The hooks"): two React roots, each with its own client,
 * QueryClient and journal object over one shared storage, one BroadcastChannel (the journal's, per
 * client scope) and one Web Locks space (test/support/in-memory-web-locks.ts, a `LockManager` per
 * tab), against one reference service in-process. On fake timers: requests are counted per
 * simulated interval, never in wall-clock windows. Get Result requests are counted at each tab's
 * transport; the service's `Retry-After` hint is taken off the answers so that the polling policy's
 * fixed interval sets the pace.
 */
import { render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  TaskList,
  TaskwireProvider,
  useTaskList,
  useTaskResult,
  type PollingPolicyOptions,
} from '../../src/index.js';
import { renderWithTaskwire } from '../../src/testing/index.js';
import { createInMemoryWebLocks, type InMemoryWebLocks } from '../support/in-memory-web-locks.js';
import {
  closeJournalPages,
  journalPageService,
  openJournalPage,
  tabJournal,
} from '../support/journal-page.js';
import { mapStorage } from '../support/map-storage.js';
import { fakeTimersAndClock, step, until } from '../support/fake-clock.js';

/** An answer that never comes. */
const hung = () => new Promise<Response>(() => undefined);

/** A fixed interval: the policy's floor and ceiling alike. */
const INTERVAL_MS = 200;
/** `until`'s step in these tests: a quarter of the polling interval. */
const quarterInterval = { stepMs: INTERVAL_MS / 4 };
const POLLING: PollingPolicyOptions = { minIntervalMs: INTERVAL_MS, maxIntervalMs: INTERVAL_MS };

let space: InMemoryWebLocks;
beforeEach(() => {
  fakeTimersAndClock();
  space = createInMemoryWebLocks();
});
afterEach(async () => {
  vi.useRealTimers();
  await closeJournalPages();
});

const shows = (tab: string, text: string | RegExp) => () => {
  const content = screen.queryByTestId(tab)?.textContent ?? '';
  return typeof text === 'string' ? content.includes(text) : text.test(content);
};

let scopes = 0;

/** A service, a storage the tabs share, and a way to open tabs on them. */
function setup(options: { sharePolling?: boolean } = {}) {
  const service = journalPageService(0.1);
  const storage = mapStorage();
  // A scope of its own per test, so the tabs of one test never hear another test's.
  scopes += 1;
  const scope = `two-tabs-${String(scopes)}`;
  /** Every Get Result request of every tab, in order, with its tab, task id and simulated time. */
  const gets: Array<{ tab: string; id: string; at: number }> = [];

  /**
   * Opens a tab; `frozen`, when given, freezes it from the moment it says so: its requests never
   * get an answer (a tab whose page hangs), though its components stay mounted.
   */
  const openTab = (name: string, tabScope = scope, frozen?: () => boolean) => {
    const transport = frozen
      ? { ...service, fetch: (request: Request) => (frozen() ? hung() : service.fetch(request)) }
      : service;
    const page = openJournalPage(transport as typeof service, {
      journal: tabJournal(space.tab(name), {
        storage,
        ...(options.sharePolling === undefined ? {} : { sharePolling: options.sharePolling }),
      }),
      scope: tabScope,
      retryAfter: false,
      onRequest: (request) => {
        const path = new URL(request.url).pathname;
        if (request.method === 'GET' && path.endsWith('/result'))
          gets.push({ tab: name, id: path.split('/').at(-2) ?? '', at: Date.now() });
      },
    });
    return { ...page, name, gets: () => gets.filter((get) => get.tab === name) };
  };
  /** Get Results of every tab from `from` (simulated ms) on. */
  const getsSince = (from: number) => gets.filter((get) => get.at >= from);
  return { service, storage, scope, gets, openTab, getsSince };
}

function Watcher({
  tab,
  id,
  polling = POLLING,
}: {
  tab: string;
  id: string;
  polling?: PollingPolicyOptions;
}) {
  const { data } = useTaskResult('render-video', id, { polling });
  return (
    <p data-testid={tab}>
      {data ? `${data.status} ${String(data.progress.percent)}` : 'loading'}
      {data?.status === 'COMPLETED' ? ` ${JSON.stringify(data.result)}` : ''}
    </p>
  );
}

/** A render-video of about 2 s at the service's time scale. */
const PARAMS = { frames: 20, frameMs: 1000 };

/**
 * Two tabs on one render-video task: the first mounts its Watcher and shows the task running, then
 * the second mounts its own (at `secondMounted`, simulated time).
 */
async function watchInTwoTabs(options: { sharePolling?: boolean } = {}, params = PARAMS) {
  const tabs = setup(options);
  const first = tabs.openTab('first');
  const second = tabs.openTab('second');
  const { id } = await first.client.submit('render-video', params);
  const firstView = renderWithTaskwire(<Watcher tab="first" id={id} />, first.options);
  await until(shows('first', /IN_PROGRESS/), quarterInterval);
  const secondMounted = Date.now();
  renderWithTaskwire(<Watcher tab="second" id={id} />, second.options);
  return { ...tabs, first, second, id, firstView, secondMounted };
}

describe('two tabs watching one task', () => {
  it('make the Get Result requests of one tab, and both show every record and the result', async () => {
    const { first, second, id, secondMounted, getsSince } = await watchInTwoTabs();
    const took = await until(shows('second', /COMPLETED/), quarterInterval);
    await until(shows('first', /COMPLETED/), quarterInterval);
    // The first tab polled; the second read nothing itself.
    expect(first.gets().length).toBeGreaterThan(4);
    expect(second.gets()).toHaveLength(0);
    // Together they kept one schedule: one Get Result per interval, give or take one.
    expect(getsSince(secondMounted).length).toBeLessThanOrEqual(Math.ceil(took / INTERVAL_MS) + 1);

    // Both show the final record as the service has it.
    const record = await first.client.getResult('render-video', id);
    expect(record.status).toBe('COMPLETED');
    const shown = `COMPLETED 100 ${JSON.stringify(record.result)}`;
    expect(screen.getByTestId('first')).toHaveTextContent(shown);
    expect(screen.getByTestId('second')).toHaveTextContent(shown);
  });

  it('each poll for itself when the journal does not share polling (the control)', async () => {
    const { second, secondMounted, getsSince } = await watchInTwoTabs({ sharePolling: false });
    const took = await until(shows('second', /COMPLETED/), quarterInterval);
    // Without sharing, the second tab keeps a schedule of its own: the requests of two tabs.
    expect(second.gets().length).toBeGreaterThan(4);
    expect(getsSince(secondMounted).length).toBeGreaterThan(Math.ceil(took / INTERVAL_MS) + 1);
  });

  it('hand the poll over when the polling tab closes, and the other reaches the final record', async () => {
    const { first, second, firstView } = await watchInTwoTabs();
    await until(() => first.gets().length > 3, quarterInterval);
    expect(second.gets()).toHaveLength(0);

    // The first tab closes: its page hides, then goes, and the browser releases its locks.
    const closedAt = Date.now();
    const polledBefore = first.gets().length;
    firstView.unmount();
    window.dispatchEvent(new Event('pagehide'));
    space.closeTab('first');

    await until(shows('second', /COMPLETED/), quarterInterval);
    // The second took over within one interval (two, for the poll already due) and polled on.
    const taken = second.gets().find((get) => get.at >= closedAt);
    expect((taken?.at ?? Infinity) - closedAt).toBeLessThanOrEqual(2 * INTERVAL_MS);
    expect(second.gets().length).toBeGreaterThan(2);
    expect(first.gets().length).toBeLessThanOrEqual(polledBefore + 1);
  });

  it('read for themselves within the ceiling when the polling tab freezes holding the poll', async () => {
    const { openTab } = setup();
    let frozen = false;
    const first = openTab('first', undefined, () => frozen);
    const second = openTab('second');
    const { id } = await first.client.submit('render-video', { frames: 30, frameMs: 1000 });
    renderWithTaskwire(<Watcher tab="first" id={id} />, first.options);
    await until(shows('first', /IN_PROGRESS/), quarterInterval);
    renderWithTaskwire(<Watcher tab="second" id={id} />, second.options);
    await until(() => first.gets().length > 2, quarterInterval);

    // Frozen: its components stay, but its reads never end; it says nothing and keeps its lock.
    const stoppedAt = Date.now();
    frozen = true;
    await until(shows('second', /COMPLETED/), quarterInterval);
    const taken = second.gets().find((get) => get.at >= stoppedAt);
    // Never later than the policy's ceiling (and one interval for the poll to come due).
    expect((taken?.at ?? Infinity) - stoppedAt).toBeLessThanOrEqual(2 * INTERVAL_MS);
  });

  it('hand the poll over at once when the polling tab stops reading the task but stays open', async () => {
    // An interval far below the ceiling, so that a tab waiting a ceiling would show.
    const polling = { minIntervalMs: INTERVAL_MS, maxIntervalMs: 25 * INTERVAL_MS };
    const { openTab } = setup();
    const first = openTab('first');
    const second = openTab('second');
    // 200 frames of 10 ms here: a new percent every 10 ms, at most 2 s left, so each tab's own
    // interval is a quarter of that at most (500 ms), far below the ceiling of 5 s.
    const { id } = await first.client.submit('render-video', { frames: 200, frameMs: 100 });
    const longestInterval = 2000 / 4;
    const firstView = renderWithTaskwire(
      <Watcher tab="first" id={id} polling={polling} />,
      first.options,
    );
    await until(shows('first', /IN_PROGRESS/), quarterInterval);
    renderWithTaskwire(<Watcher tab="second" id={id} polling={polling} />, second.options);
    await until(shows('second', /IN_PROGRESS/), quarterInterval);
    await until(() => first.gets().length > 2, quarterInterval);
    expect(second.gets()).toHaveLength(0);

    // The first tab's components go; the tab stays open (no pagehide, its locks not freed by a close).
    const polledBefore = first.gets().length;
    const shown = screen.getByTestId('second').textContent;
    firstView.unmount();
    const took = await until(() => screen.getByTestId('second').textContent !== shown, {
      stepMs: 10,
    });
    expect(took).toBeLessThanOrEqual(longestInterval);
    expect(second.gets().length).toBeGreaterThan(0);
    expect(first.gets().length).toBeLessThanOrEqual(polledBefore + 1);
  });

  it('share the poll of a task useTaskList shows in both', async () => {
    const { openTab, getsSince } = setup();
    const first = openTab('first');
    const second = openTab('second');
    const id = await first.start('render-video', PARAMS);
    function List({ tab }: { tab: string }) {
      const items = useTaskList({ polling: POLLING });
      return (
        <p data-testid={tab}>
          {items.map((item) => `${item.entry?.id ?? ''} ${item.record?.status ?? 'unread'}`).join()}
        </p>
      );
    }
    renderWithTaskwire(<List tab="first" />, first.options);
    await until(shows('first', /IN_PROGRESS/), quarterInterval);
    const secondMounted = Date.now();
    // The second tab finds the task in the journal the two share.
    renderWithTaskwire(<List tab="second" />, second.options);
    const took = await until(shows('second', `${id} COMPLETED`), quarterInterval);
    await until(shows('first', `${id} COMPLETED`), quarterInterval);
    expect(second.gets()).toHaveLength(0);
    expect(getsSince(secondMounted).length).toBeLessThanOrEqual(Math.ceil(took / INTERVAL_MS) + 1);
  });
});

describe('two users in one browser', () => {
  it('refuses a journal whose client has no scope of its own, before storing anything', () => {
    const storage = mapStorage();
    const page = openJournalPage(journalPageService(0.1), {
      journal: tabJournal(space.tab('tab'), { storage }),
      scope: null,
    });
    // React reports the error it rethrows; the test reads the thrown one.
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(() => renderWithTaskwire(<TaskList />, page.options)).toThrow(
        expect.objectContaining({
          name: 'TaskwireError',
          code: 'protocol',
          reason: 'SCOPE_REQUIRED',
          message: expect.stringContaining('createTaskClient({ scope })') as unknown,
        }),
      );
    } finally {
      quiet.mockRestore();
    }
    expect(storage.values.size).toBe(0);
    expect(space.heldNames()).toEqual([]);
  });

  it('keep their tasks apart in two tabs open at once on one storage and channel', async () => {
    const { openTab, gets } = setup();
    const alice = openTab('alice', 'user-alice');
    const bob = openTab('bob', 'user-bob');
    const aliceTask = await alice.start('render-video', PARAMS);
    function List({ tab }: { tab: string }) {
      const items = useTaskList({ polling: POLLING });
      return <p data-testid={tab}>{items.map((item) => item.entry?.id ?? 'start').join()}</p>;
    }
    renderWithTaskwire(<List tab="alice" />, alice.options);
    renderWithTaskwire(<List tab="bob" />, bob.options);
    await until(shows('alice', aliceTask), quarterInterval);
    await step(5 * INTERVAL_MS);
    expect(screen.getByTestId('bob')).toHaveTextContent(/^$/);
    // Bob's tab neither read Alice's task nor took a record of it into its cache.
    expect(gets.filter((get) => get.tab === 'bob')).toEqual([]);
    expect(
      bob.queryClient
        .getQueryCache()
        .getAll()
        .filter((query) => JSON.stringify(query.queryKey).includes(aliceTask)),
    ).toEqual([]);
  });

  it('switch every list and poll to the new user on a log-out and log-in in one tab', async () => {
    const tabs = setup();
    const alice = tabs.openTab('tab', 'user-alice');
    const bob = tabs.openTab('bob', 'user-bob');
    const aliceTask = await alice.start('render-video', { frames: 50, frameMs: 1000 });
    const bobTask = await bob.start('render-video', PARAMS);
    function Page({ client }: { client: typeof alice.client }) {
      // Written out: the sign-in swaps this provider's client in place; the kit's keeps its own.
      return (
        <TaskwireProvider client={client} journal={alice.journal}>
          <List />
        </TaskwireProvider>
      );
    }
    function List() {
      const items = useTaskList({ polling: POLLING });
      return (
        <p data-testid="tab">
          {items.map((item) => `${item.entry?.id ?? ''} ${item.record?.status ?? 'unread'}`).join()}
        </p>
      );
    }
    // One tab, one QueryClient: Alice signed in, then Bob (a new client of his scope).
    const { QueryClientProvider } = await import('@tanstack/react-query');
    const view = render(
      <QueryClientProvider client={alice.queryClient}>
        <Page client={alice.client} />
      </QueryClientProvider>,
    );
    await until(shows('tab', `${aliceTask} IN_PROGRESS`), quarterInterval);
    view.rerender(
      <QueryClientProvider client={alice.queryClient}>
        <Page client={bob.client} />
      </QueryClientProvider>,
    );
    const switchedAt = Date.now();
    await step(0);
    expect(screen.getByTestId('tab')).not.toHaveTextContent(aliceTask);
    await until(shows('tab', `${bobTask} COMPLETED`), quarterInterval);
    // After the switch no request asked for Alice's task: no 404 for a task of another user.
    expect(tabs.gets.filter((get) => get.at > switchedAt && get.id === aliceTask)).toEqual([]);
    expect(screen.getByTestId('tab')).not.toHaveTextContent(aliceTask);
  });
});
