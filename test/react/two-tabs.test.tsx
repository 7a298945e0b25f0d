/**
 * Two "tabs" on one task (docs/protocol.md, "The hooks"): two React roots,
 * each with its own client, QueryClient and journal object over one shared storage, so one
 * BroadcastChannel (the journal's, per client scope), against one reference service in-process.
 * Get Result requests are counted at each tab's transport. The service's `Retry-After` hint is
 * taken off the answers so that the polling policy's fixed interval sets the pace.
 */
import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createTaskJournal,
  useTaskList,
  useTaskResult,
  type PollingPolicyOptions,
} from '../../src/index.js';
import { closeJournalPages, journalPageService, openJournalPage } from '../support/journal-page.js';
import { mapStorage } from '../support/map-storage.js';

/** A fixed interval: the policy's floor and ceiling alike. */
const INTERVAL_MS = 200;
const POLLING: PollingPolicyOptions = { minIntervalMs: INTERVAL_MS, maxIntervalMs: INTERVAL_MS };
/** Two polls of one schedule are never closer than this (timers fire a little early at times). */
const SHORT_GAP_MS = INTERVAL_MS * 0.8;

afterEach(closeJournalPages);

let scopes = 0;

/** A service, a storage the tabs share, and a way to open tabs on them. */
function setup(options: { sharePolling?: boolean } = {}) {
  const service = journalPageService(0.1);
  const storage = mapStorage();
  // A scope of its own per test, so the tabs of one test never hear another test's.
  scopes += 1;
  const scope = `two-tabs-${scopes}`;
  /** Every Get Result request of every tab, in order, with its tab and time. */
  const gets: Array<{ tab: string; at: number }> = [];

  const openTab = (name: string) => {
    const page = openJournalPage(service, {
      journal: createTaskJournal({
        storage,
        ...(options.sharePolling === undefined ? {} : { sharePolling: options.sharePolling }),
      }),
      scope,
      retryAfter: false,
      onRequest: (request) => {
        if (request.method === 'GET' && new URL(request.url).pathname.endsWith('/result'))
          gets.push({ tab: name, at: performance.now() });
      },
    });
    return { ...page, name, gets: () => gets.filter((get) => get.tab === name) };
  };

  /** How many times two Get Results in a row, of any tab, came closer than one schedule allows. */
  const shortGaps = (from = 0) => {
    const times = gets.filter((get) => get.at >= from).map((get) => get.at);
    return times.slice(1).filter((at, index) => at - (times[index] as number) < SHORT_GAP_MS)
      .length;
  };
  return { service, storage, scope, gets, openTab, shortGaps };
}

function Watcher({ tab, id }: { tab: string; id: string }) {
  const { data } = useTaskResult('render-video', id, { polling: POLLING });
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
 * the second mounts its own (at `secondMounted`).
 */
async function watchInTwoTabs(options: { sharePolling?: boolean } = {}, params = PARAMS) {
  const tabs = setup(options);
  const first = tabs.openTab('first');
  const second = tabs.openTab('second');
  const { id } = await first.client.submit('render-video', params);
  const firstView = render(<Watcher tab="first" id={id} />, { wrapper: first.wrapper });
  await waitFor(() => expect(screen.getByTestId('first')).toHaveTextContent(/IN_PROGRESS/));
  const secondMounted = performance.now();
  render(<Watcher tab="second" id={id} />, { wrapper: second.wrapper });
  return { ...tabs, first, second, id, firstView, secondMounted };
}

/** Waits for `tab` to show `text`, with room for the whole task. */
function untilShown(tab: string, text: string | RegExp) {
  return waitFor(() => expect(screen.getByTestId(tab)).toHaveTextContent(text), {
    timeout: 10_000,
  });
}

describe('two tabs watching one task', () => {
  it('make the Get Result requests of one tab, and both show every record and the result', async () => {
    const { first, second, id, secondMounted, shortGaps } = await watchInTwoTabs();
    await untilShown('second', /COMPLETED/);
    await waitFor(() => expect(screen.getByTestId('first')).toHaveTextContent(/COMPLETED/));
    // The first tab polled; the second read nothing itself (give or take one at the start).
    expect(first.gets().length).toBeGreaterThan(4);
    expect(second.gets().length).toBeLessThanOrEqual(1);
    // Together they kept one schedule: no two polls closer than one interval, but for one.
    expect(shortGaps(secondMounted)).toBeLessThanOrEqual(1);

    // Both show the final record as the service has it.
    const record = await first.client.getResult('render-video', id);
    expect(record.status).toBe('COMPLETED');
    const shown = `COMPLETED 100 ${JSON.stringify(record.result)}`;
    expect(screen.getByTestId('first')).toHaveTextContent(shown);
    expect(screen.getByTestId('second')).toHaveTextContent(shown);
  });

  it('each poll for itself when the journal does not share polling (the control)', async () => {
    const { second, secondMounted, shortGaps } = await watchInTwoTabs({ sharePolling: false });
    await untilShown('second', /COMPLETED/);
    // Without sharing, the second tab keeps a schedule of its own: the requests of two tabs.
    expect(second.gets().length).toBeGreaterThan(4);
    expect(shortGaps(secondMounted)).toBeGreaterThan(1);
  });

  it('hand the poll over when the polling tab closes, and the other reaches the final record', async () => {
    const { first, second, firstView, shortGaps } = await watchInTwoTabs();
    await waitFor(() => expect(second.gets().length + first.gets().length).toBeGreaterThan(3));
    expect(second.gets().length).toBeLessThanOrEqual(1);

    // The first tab closes: its page hides, then goes.
    const closedAt = performance.now();
    const polledBefore = first.gets().length;
    firstView.unmount();
    window.dispatchEvent(new Event('pagehide'));

    await untilShown('second', /COMPLETED/);
    // The second took over within one interval (or two, for the poll already due) and polled on.
    const taken = second.gets().find((get) => get.at >= closedAt);
    expect(taken).toBeDefined();
    expect((taken?.at ?? Infinity) - closedAt).toBeLessThan(2 * INTERVAL_MS + 100);
    expect(second.gets().length).toBeGreaterThan(2);
    expect(first.gets().length).toBeLessThanOrEqual(polledBefore + 1);
    expect(shortGaps(closedAt)).toBeLessThanOrEqual(1);
  });

  it('take the poll over when the polling tab stops answering, after its lease', async () => {
    const { first, second, firstView } = await watchInTwoTabs({}, { frames: 30, frameMs: 1000 });
    await waitFor(() => expect(first.gets().length).toBeGreaterThan(2));

    // Gone without a word (a frozen or crashed tab sends no pagehide).
    const stoppedAt = performance.now();
    firstView.unmount();
    await untilShown('second', /COMPLETED/);
    const taken = second.gets().find((get) => get.at >= stoppedAt);
    expect(taken).toBeDefined();
    // Not before the lease (two intervals and a second) ran out, and not long after.
    const lease = 2 * INTERVAL_MS + 1000;
    expect((taken?.at ?? 0) - stoppedAt).toBeGreaterThan(lease - 2 * INTERVAL_MS);
    expect((taken?.at ?? Infinity) - stoppedAt).toBeLessThan(lease + 2 * INTERVAL_MS);
  });

  it('share the poll of a task useTaskList shows in both', async () => {
    const { openTab, shortGaps } = setup();
    const first = openTab('first');
    const second = openTab('second');
    const id = await first.start('render-video', PARAMS);
    function List({ tab }: { tab: string }) {
      const items = useTaskList({ polling: POLLING });
      return (
        <p data-testid={tab}>
          {items.map((item) => `${item.entry.id} ${item.record?.status ?? 'unread'}`).join()}
        </p>
      );
    }
    render(<List tab="first" />, { wrapper: first.wrapper });
    await waitFor(() => expect(screen.getByTestId('first')).toHaveTextContent(/IN_PROGRESS/));
    const secondMounted = performance.now();
    // The second tab finds the task in the journal the two share.
    render(<List tab="second" />, { wrapper: second.wrapper });
    await untilShown('second', `${id} COMPLETED`);
    await waitFor(() => expect(screen.getByTestId('first')).toHaveTextContent(`${id} COMPLETED`));
    expect(second.gets().length).toBeLessThanOrEqual(1);
    expect(shortGaps(secondMounted)).toBeLessThanOrEqual(1);
  });
});
