/**
 * Two "tabs" on one task (docs/protocol.md, "The hooks"): two React roots,
 * each with its own client, QueryClient and journal object over one shared storage, so one
 * BroadcastChannel (the journal's, per client scope), against one reference service in-process.
 * Get Result requests are counted at each tab's transport. The service's `Retry-After` hint is
 * taken off the answers so that the polling policy's fixed interval sets the pace.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { createTaskClient } from '../../src/client/index.js';
import {
  createTaskJournal,
  TaskwireProvider,
  useTaskList,
  useTaskResult,
  type PollingPolicyOptions,
} from '../../src/index.js';
import {
  createReferenceService,
  DEMO_CLIENT_TOKEN,
  DEMO_USER_TOKEN,
  demoTaskSchemas,
} from '../../src/reference/index.js';
import { mapStorage } from '../support/map-storage.js';

/** A fixed interval: the policy's floor and ceiling alike. */
const INTERVAL_MS = 200;
const POLLING: PollingPolicyOptions = { minIntervalMs: INTERVAL_MS, maxIntervalMs: INTERVAL_MS };
/** Two polls of one schedule are never closer than this (timers fire a little early at times). */
const SHORT_GAP_MS = INTERVAL_MS * 0.8;

const services: Array<ReturnType<typeof createReferenceService>> = [];
const queryClients: QueryClient[] = [];
afterEach(async () => {
  for (const queryClient of queryClients.splice(0)) queryClient.clear();
  await Promise.all(services.splice(0).map((service) => service.close()));
});

let scopes = 0;

/** A service, a storage the tabs share, and a way to open tabs on them. */
function setup(options: { sharePolling?: boolean } = {}) {
  const service = createReferenceService({ timeScale: 0.1 });
  services.push(service);
  const storage = mapStorage();
  // A scope of its own per test, so the tabs of one test never hear another test's.
  scopes += 1;
  const scope = `two-tabs-${scopes}`;
  /** Every Get Result request of every tab, in order, with its tab and time. */
  const gets: Array<{ tab: string; at: number }> = [];

  const openTab = (name: string) => {
    const client = createTaskClient({
      baseUrl: 'http://taskwire.test',
      userToken: DEMO_USER_TOKEN,
      clientToken: DEMO_CLIENT_TOKEN,
      tasks: demoTaskSchemas,
      scope,
      fetch: async (request) => {
        if (request.method === 'GET' && new URL(request.url).pathname.endsWith('/result'))
          gets.push({ tab: name, at: performance.now() });
        const response = await service.fetch(request);
        if (!response.headers.has('retry-after')) return response;
        const headers = new Headers(response.headers);
        headers.delete('retry-after');
        return new Response(response.body, { status: response.status, headers });
      },
    });
    const queryClient = new QueryClient();
    queryClients.push(queryClient);
    const journal = createTaskJournal({
      storage,
      ...(options.sharePolling === undefined ? {} : { sharePolling: options.sharePolling }),
    });
    const Providers = ({ children }: { children?: ReactNode }) => (
      <QueryClientProvider client={queryClient}>
        <TaskwireProvider client={client} journal={journal}>
          {children}
        </TaskwireProvider>
      </QueryClientProvider>
    );
    return { name, client, journal, Providers, gets: () => gets.filter((get) => get.tab === name) };
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

describe('two tabs watching one task', () => {
  it('make the Get Result requests of one tab, and both show every record and the result', async () => {
    const { openTab, shortGaps } = setup();
    const first = openTab('first');
    const second = openTab('second');
    const { id } = await first.client.submit('render-video', PARAMS);

    render(<Watcher tab="first" id={id} />, { wrapper: first.Providers });
    await waitFor(() => expect(screen.getByTestId('first')).toHaveTextContent(/IN_PROGRESS/));
    const secondMounted = performance.now();
    render(<Watcher tab="second" id={id} />, { wrapper: second.Providers });

    await waitFor(() => expect(screen.getByTestId('second')).toHaveTextContent(/COMPLETED/), {
      timeout: 10_000,
    });
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
    const { openTab, shortGaps } = setup({ sharePolling: false });
    const first = openTab('first');
    const second = openTab('second');
    const { id } = await first.client.submit('render-video', PARAMS);
    render(<Watcher tab="first" id={id} />, { wrapper: first.Providers });
    await waitFor(() => expect(screen.getByTestId('first')).toHaveTextContent(/IN_PROGRESS/));
    const secondMounted = performance.now();
    render(<Watcher tab="second" id={id} />, { wrapper: second.Providers });
    await waitFor(() => expect(screen.getByTestId('second')).toHaveTextContent(/COMPLETED/), {
      timeout: 10_000,
    });
    // Without sharing, the second tab keeps a schedule of its own: the requests of two tabs.
    expect(second.gets().length).toBeGreaterThan(4);
    expect(shortGaps(secondMounted)).toBeGreaterThan(1);
  });

  it('hand the poll over when the polling tab closes, and the other reaches the final record', async () => {
    const { openTab, shortGaps } = setup();
    const first = openTab('first');
    const second = openTab('second');
    const { id } = await first.client.submit('render-video', PARAMS);
    const firstView = render(<Watcher tab="first" id={id} />, { wrapper: first.Providers });
    await waitFor(() => expect(screen.getByTestId('first')).toHaveTextContent(/IN_PROGRESS/));
    render(<Watcher tab="second" id={id} />, { wrapper: second.Providers });
    await waitFor(() => expect(second.gets().length + first.gets().length).toBeGreaterThan(3));
    expect(second.gets().length).toBeLessThanOrEqual(1);

    // The first tab closes: its page hides, then goes.
    const closedAt = performance.now();
    const polledBefore = first.gets().length;
    firstView.unmount();
    window.dispatchEvent(new Event('pagehide'));

    await waitFor(() => expect(screen.getByTestId('second')).toHaveTextContent(/COMPLETED/), {
      timeout: 10_000,
    });
    // The second took over within one interval (or two, for the poll already due) and polled on.
    const taken = second.gets().find((get) => get.at >= closedAt);
    expect(taken).toBeDefined();
    expect((taken?.at ?? Infinity) - closedAt).toBeLessThan(2 * INTERVAL_MS + 100);
    expect(second.gets().length).toBeGreaterThan(2);
    expect(first.gets().length).toBeLessThanOrEqual(polledBefore + 1);
    expect(shortGaps(closedAt)).toBeLessThanOrEqual(1);
  });

  it('take the poll over when the polling tab stops answering, after its lease', async () => {
    const { openTab } = setup();
    const first = openTab('first');
    const second = openTab('second');
    const { id } = await first.client.submit('render-video', { frames: 30, frameMs: 1000 });
    const firstView = render(<Watcher tab="first" id={id} />, { wrapper: first.Providers });
    await waitFor(() => expect(screen.getByTestId('first')).toHaveTextContent(/IN_PROGRESS/));
    render(<Watcher tab="second" id={id} />, { wrapper: second.Providers });
    await waitFor(() => expect(first.gets().length).toBeGreaterThan(2));

    // Gone without a word (a frozen or crashed tab sends no pagehide).
    const stoppedAt = performance.now();
    firstView.unmount();
    await waitFor(() => expect(screen.getByTestId('second')).toHaveTextContent(/COMPLETED/), {
      timeout: 10_000,
    });
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
    const { id, status } = await first.client.submit('render-video', PARAMS);
    first.journal.record(first.client.scope, {
      task: 'render-video',
      id,
      mode: 'submit',
      status,
      startedAt: Date.now(),
    });
    function List({ tab }: { tab: string }) {
      const items = useTaskList({ polling: POLLING });
      return (
        <p data-testid={tab}>
          {items.map((item) => `${item.entry.id} ${item.record?.status ?? 'unread'}`).join()}
        </p>
      );
    }
    render(<List tab="first" />, { wrapper: first.Providers });
    await waitFor(() => expect(screen.getByTestId('first')).toHaveTextContent(/IN_PROGRESS/));
    const secondMounted = performance.now();
    // The second tab finds the task in the journal the two share.
    render(<List tab="second" />, { wrapper: second.Providers });
    await waitFor(() => expect(screen.getByTestId('second')).toHaveTextContent(`${id} COMPLETED`), {
      timeout: 10_000,
    });
    await waitFor(() => expect(screen.getByTestId('first')).toHaveTextContent(`${id} COMPLETED`));
    expect(second.gets().length).toBeLessThanOrEqual(1);
    expect(shortGaps(secondMounted)).toBeLessThanOrEqual(1);
  });
});
