// @vitest-environment node
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import type { ReactElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTaskClient } from '../../src/client/index.js';
import { createTaskJournal } from '../../src/state/task-journal.js';
import { mapStorage } from '../support/map-storage.js';
import {
  CreditCostPreview,
  NotificationActions,
  TaskEventList,
  TaskListView,
  TaskProgress,
  streamDisplayStatus,
  TaskStatusBadge,
  UsageBreakdown,
} from '../../src/components/index.js';
import {
  TaskList,
  TaskwireProvider,
  useCompletionNotice,
  useExecuteTask,
  useJournalEntry,
  useSubmitTask,
  useTaskJournal,
  useTaskList,
  useTaskOptions,
  useTaskResult,
  useTaskStream,
} from '../../src/react/index.js';

describe('server rendering', () => {
  it('renders the hooks without a window and without a request', () => {
    expect(typeof window).toBe('undefined');
    let requests = 0;
    const client = createTaskClient({
      baseUrl: 'http://taskwire.test',
      userToken: 'u',
      clientToken: 'c',
      fetch: async () => {
        requests += 1;
        return new Response(null, { status: 500 });
      },
    });
    function Page() {
      const result = useTaskResult('echo', 'task-1');
      const quote = useTaskOptions('echo', { message: 'hi' });
      const stream = useTaskStream('echo');
      return <p>{`${result.status} ${quote.status} ${stream.status}`}</p>;
    }
    // Providers written out: renderToString is a server render, which the test kit cannot do.
    const html = renderToString(
      <QueryClientProvider client={new QueryClient()}>
        <TaskwireProvider client={client}>
          <Page />
        </TaskwireProvider>
      </QueryClientProvider>,
    );
    expect(html).toContain('pending pending idle');
    expect(requests).toBe(0);
  });
});

describe('server rendering with a journal entry to resume', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('has no hook read the clock, a random number or storage while rendering; the stream renders idle', () => {
    const storage = mapStorage();
    // Even a journal that could read an entry on the server: the render must not look at it, since
    // the browser's first render, which hydrates this HTML, must show the very same thing.
    const journal = createTaskJournal({ storage, sharePolling: false });
    const scope = 'user-1';
    journal.record(scope, {
      key: 'render',
      task: 'render-video',
      id: 'task-1',
      mode: 'stream',
      status: 'IN_PROGRESS',
      startedAt: Date.now(),
    });
    let requests = 0;
    const client = createTaskClient({
      baseUrl: 'http://taskwire.test',
      userToken: 'u',
      clientToken: 'c',
      scope,
      fetch: async () => {
        requests += 1;
        return new Response(null, { status: 500 });
      },
    });
    // Every hook of the package, and the list, on one page.
    function Page() {
      const stream = useTaskStream('render-video', { resumeKey: 'render' });
      const result = useTaskResult('render-video', 'task-1');
      const entry = useJournalEntry('render');
      const listed = useTaskList();
      const { entries } = useTaskJournal();
      const submit = useSubmitTask('echo', { resumeKey: 'echo' });
      const execute = useExecuteTask('echo');
      const quote = useTaskOptions('echo', { message: 'hi' });
      useCompletionNotice();
      return (
        <section>
          <p>{`${stream.status} ${result.status}`}</p>
          <p>{`${entry?.id ?? 'none'} ${listed.length} ${entries.length}`}</p>
          <p>{`${submit.status} ${execute.status} ${quote.status}`}</p>
          <TaskProgress label="Render" status={streamDisplayStatus(stream)} />
          <TaskList />
        </section>
      );
    }
    const reads = vi.spyOn(storage, 'getItem');
    // Who read the clock, if anyone: a failure names the reader.
    const clockReaders: string[] = [];
    const realNow = Date.now.bind(Date);
    vi.spyOn(Date, 'now').mockImplementation(() => {
      clockReaders.push(String(new Error().stack));
      return realNow();
    });
    const dates = vi.spyOn(globalThis, 'Date');
    const random = vi.spyOn(Math, 'random');
    const uuids = vi.spyOn(crypto, 'getRandomValues');
    // Providers written out: renderToString is a server render, which the test kit cannot do.
    const html = renderToString(
      <QueryClientProvider client={new QueryClient()}>
        <TaskwireProvider client={client} journal={journal}>
          <Page />
        </TaskwireProvider>
      </QueryClientProvider>,
    );
    expect(html).toContain('idle pending');
    expect(html).toContain('data-state="idle"');
    // The journal is the browser's: the server's HTML, which the browser hydrates, lists nothing.
    expect(html).toContain('none 0 0');
    expect(html).toContain('idle idle pending');
    expect(reads).not.toHaveBeenCalled();
    expect(clockReaders).toEqual([]);
    expect(dates).not.toHaveBeenCalled();
    expect(random).not.toHaveBeenCalled();
    expect(uuids).not.toHaveBeenCalled();
    expect(requests).toBe(0);
  });
});

const usage = {
  credits: 8,
  details: [
    { toolId: 'image-gen', price: 2, amount: 3, credits: 6, failed: false },
    { toolId: 'upscale', price: 1, amount: 2, credits: 2, failed: false },
    { toolId: 'safety-check', price: 0.5, amount: 2, credits: 1, failed: true },
  ],
};
const quote = { monetization: { toolId: 'image-gen' }, usageAmount: 3, credits: 6 };
const links = [{ deeplink: 'https://example.com/exports/1', mobileDeeplink: 'myapp://e/1' }];

/** Every component in every state it has, named for the failure message. */
const EVERY_STATE: [string, ReactElement][] = [
  ['TaskProgress idle', <TaskProgress />],
  ['TaskProgress queued', <TaskProgress status="queued" />],
  ['TaskProgress indeterminate', <TaskProgress status="running" estimatedSecondsLeft={40} />],
  [
    'TaskProgress running',
    <TaskProgress status="running" percent={25} estimatedSecondsLeft={20} />,
  ],
  ['TaskProgress reconnecting', <TaskProgress status="reconnecting" percent={26} />],
  ['TaskProgress completed', <TaskProgress status="completed" />],
  [
    'TaskProgress failed',
    <TaskProgress status="failed" percent={60} failureMessage="Out of memory" />,
  ],
  ['TaskProgress failed, no percent', <TaskProgress status="failed" />],
  ['CreditCostPreview loading', <CreditCostPreview status="pending" />],
  ['CreditCostPreview unpriced', <CreditCostPreview quote={{}} />],
  ['CreditCostPreview free', <CreditCostPreview quote={{}} unpricedIsFree />],
  ['CreditCostPreview free at 0', <CreditCostPreview quote={{ credits: 0 }} />],
  ['CreditCostPreview priced', <CreditCostPreview quote={quote} isUpdating balance={5} />],
  [
    'CreditCostPreview error',
    <CreditCostPreview status="error" error={new Error('Down')} onRetry={() => {}} />,
  ],
  ['UsageBreakdown empty', <UsageBreakdown />],
  ['UsageBreakdown consistent', <UsageBreakdown usage={usage} quote={{ credits: 10 }} />],
  ['UsageBreakdown inconsistent', <UsageBreakdown usage={{ ...usage, credits: 12 }} />],
  ...(['idle', 'queued', 'running', 'reconnecting', 'completed', 'failed'] as const).map(
    (status): [string, ReactElement] => [
      `TaskStatusBadge ${status}`,
      <TaskStatusBadge status={status} />,
    ],
  ),
  ['TaskEventList empty', <TaskEventList />],
  ['TaskEventList listed', <TaskEventList events={[{ type: 'event.frame-rendered', frame: 1 }]} />],
  ['NotificationActions empty', <NotificationActions title="Export ready" emptyText="No link." />],
  ['NotificationActions listed', <NotificationActions actions={links} appSchemes={['myapp']} />],
  ['TaskListView empty', <TaskListView onDismiss={() => {}} />],
  [
    'TaskListView listed',
    <TaskListView
      items={[
        { entry: { id: 'a', task: 'echo', status: 'ACCEPTED', startedAt: 0 } },
        {
          entry: { id: 'b', task: 'render-video', status: 'IN_PROGRESS', startedAt: 0 },
          record: {
            status: 'IN_PROGRESS',
            progress: { percent: 40, estimatedSecondsLeft: 2 },
            usage,
          },
        },
      ]}
      onDismiss={() => {}}
    />,
  ],
];

describe('server rendering of the components', () => {
  it('puts no style attribute in the HTML of any component in any state', () => {
    // A page whose Content-Security-Policy forbids inline styles ignores style attributes, so the
    // server HTML must draw everything (the progress fill included) through classes and attributes.
    const styled = EVERY_STATE.filter(([, element]) => / style=/.test(renderToString(element))).map(
      ([name]) => name,
    );
    expect(styled).toEqual([]);
  });
});
