/**
 * Every state of every component, as cells of a {@link StateGrid}, with the app's own text (labels,
 * failure reasons, task names) in a language of choice: the English, German and right-to-left
 * stories show the same states, and the German check of test/components/messages.test.tsx renders
 * these very lists, so a state added here is checked for English words left.
 */
import {
  CreditCostPreview,
  NotificationActions,
  TaskEventList,
  TaskListView,
  TaskProgress,
  TaskStatusBadge,
  UsageBreakdown,
  type TaskListViewItem,
} from '../src/components/index.js';
import type { StateCell } from './state-grid.js';

/** The app's own words in the states: what a caller passes, not what a component says. */
export interface SampleText {
  /** The name of a progress bar. */
  progressLabel: string;
  /** Why a task failed. */
  failureReason: string;
  /** Why the price could not be read. */
  quoteError: string;
  /** A notification's title. */
  notificationTitle: string;
  /** Shown when a notification has no safe link. */
  noLink: string;
  /** The names of four tasks: queued, running, completed, failed. */
  tasks: readonly [string, string, string, string];
}

/** English, as the component stories have always shown. */
export const englishSample: SampleText = {
  progressLabel: 'Render video',
  failureReason: 'The renderer ran out of memory.',
  quoteError: 'The service did not answer.',
  notificationTitle: 'Export ready',
  noLink: 'No link to open.',
  tasks: ['translate-text', 'render-video', 'generate-images', 'failing-task'],
};

/** German. */
export const germanSample: SampleText = {
  progressLabel: 'Video rendern',
  failureReason: 'Dem Renderer ging der Speicher aus.',
  quoteError: 'Der Dienst hat nicht geantwortet.',
  notificationTitle: 'Export fertig',
  noLink: 'Kein Link zum Öffnen.',
  tasks: ['text-uebersetzen', 'video-rendern', 'bilder-erzeugen', 'schlaegt-fehl'],
};

/** Arabic, a right-to-left script. */
export const arabicSample: SampleText = {
  progressLabel: 'عرض الفيديو',
  failureReason: 'نفدت ذاكرة أداة العرض.',
  quoteError: 'لم تستجب الخدمة.',
  notificationTitle: 'التصدير جاهز',
  noLink: 'لا يوجد رابط لفتحه.',
  tasks: ['ترجمة النص', 'عرض الفيديو', 'إنشاء الصور', 'مهمة فاشلة'],
};

/** The figures of the demo task `generate-images` (its preflight quotes 2.5 per image; three images). */
export const quote = { monetization: { toolId: 'image-gen' }, usageAmount: 3, credits: 7.5 };

/** Shaped like the demo task `generate-images`: charged tools and one failed, not charged. */
export const usage = {
  credits: 8,
  details: [
    { toolId: 'image-gen', price: 2, amount: 3, credits: 6, failed: false },
    { toolId: 'upscale', price: 1, amount: 2, credits: 2, failed: false },
    { toolId: 'safety-check', price: 0.5, amount: 2, credits: 1, failed: true },
  ],
};

/** The custom events of the demo task `render-video`, as a stream delivers them. */
export const events = [
  { type: 'event.frame-rendered', eventId: 'e1', frame: 1 },
  { type: 'event.frame-rendered', eventId: 'e2', frame: 2 },
  { type: 'event.thumbnail-ready', eventId: 'e3', url: 'https://example.com/thumb.png' },
];

/** What the demo task `export-data` sends on completion. */
export const notificationActions = [
  { deeplink: 'https://example.com/exports/42', mobileDeeplink: 'myapp://exports/42' },
];

/** Links a service must never get through. */
export const dangerousActions = [
  { deeplink: 'javascript:alert(document.cookie)', mobileDeeplink: 'data:text/html,<b>x</b>' },
  { deeplink: 'http://example.com/plain-http' },
  // App schemes this app did not list in appSchemes: another program on the device would open them.
  { mobileDeeplink: 'ms-msdt:/id PCWDiagnostic' },
  { mobileDeeplink: 'search-ms:query=invoice' },
];

/** One task of each kind, shaped like the demo tasks' records, started a few minutes ago. */
export function taskListItems(
  [queued, running, completed, failed]: SampleText['tasks'],
  startedAt: number = Date.now() - 4 * 60_000,
): TaskListViewItem[] {
  return [
    { entry: { id: 'q', task: queued, status: 'ACCEPTED', startedAt } },
    {
      entry: { id: 'r', task: running, status: 'IN_PROGRESS', startedAt },
      record: { status: 'IN_PROGRESS', progress: { percent: 45, estimatedSecondsLeft: 2 } },
    },
    {
      entry: { id: 'c', task: completed, status: 'COMPLETED', startedAt },
      record: {
        status: 'COMPLETED',
        progress: { percent: 100, estimatedSecondsLeft: 0 },
        usage: {
          credits: 5,
          details: [
            { toolId: 'image-gen', price: 2, amount: 2, credits: 4, failed: false },
            { toolId: 'upscale', price: 0.5, amount: 2, credits: 1, failed: false },
          ],
        },
      },
    },
    {
      // Started yesterday, so its time is written with the date.
      entry: { id: 'f', task: failed, status: 'FAILED', startedAt: startedAt - 86_400_000 },
      record: { status: 'FAILED', progress: { percent: 30, estimatedSecondsLeft: 0 } },
    },
  ];
}

/** The states of each component, by the component's name, with `sample` as the app's text. */
export const componentStates = {
  TaskProgress: (sample: SampleText): StateCell[] => {
    const label = sample.progressLabel;
    return [
      { name: 'idle', node: <TaskProgress label={label} /> },
      { name: 'queued', node: <TaskProgress label={label} status="ACCEPTED" /> },
      {
        name: 'indeterminate',
        node: <TaskProgress label={label} status="IN_PROGRESS" estimatedSecondsLeft={50} />,
      },
      {
        name: 'running',
        node: (
          <TaskProgress
            label={label}
            status="IN_PROGRESS"
            percent={45}
            estimatedSecondsLeft={170}
          />
        ),
      },
      {
        name: 'running, seconds left',
        node: <TaskProgress status="IN_PROGRESS" percent={80} estimatedSecondsLeft={20} />,
      },
      {
        name: 'running, hours left',
        node: (
          <TaskProgress label={label} status="running" percent={5} estimatedSecondsLeft={9000} />
        ),
      },
      {
        name: 'reconnecting',
        node: (
          <TaskProgress label={label} status="reconnecting" percent={26} estimatedSecondsLeft={5} />
        ),
      },
      { name: 'completed', node: <TaskProgress label={label} status="COMPLETED" /> },
      {
        name: 'failed',
        node: (
          <TaskProgress
            label={label}
            status="FAILED"
            percent={60}
            failureMessage={sample.failureReason}
          />
        ),
      },
    ];
  },
  CreditCostPreview: (sample: SampleText): StateCell[] => [
    { name: 'loading', node: <CreditCostPreview status="pending" /> },
    { name: 'unpriced ({})', node: <CreditCostPreview quote={{}} /> },
    {
      name: 'free ({} with unpricedIsFree)',
      node: <CreditCostPreview quote={{}} unpricedIsFree />,
    },
    {
      name: 'free (0 credits)',
      node: <CreditCostPreview quote={{ monetization: { toolId: 'export' }, credits: 0 }} />,
    },
    { name: 'priced', node: <CreditCostPreview quote={quote} /> },
    {
      name: 'priced, no credits given',
      node: <CreditCostPreview quote={{ monetization: { toolId: 'image-gen' } }} />,
    },
    { name: 'priced, updating', node: <CreditCostPreview quote={quote} isUpdating /> },
    { name: 'over budget', node: <CreditCostPreview quote={quote} balance={5} /> },
    {
      name: 'error',
      node: (
        <CreditCostPreview status="error" error={new Error(sample.quoteError)} onRetry={() => {}} />
      ),
    },
  ],
  UsageBreakdown: (_sample: SampleText): StateCell[] => [
    { name: 'empty', node: <UsageBreakdown /> },
    {
      name: 'consistent, as quoted',
      node: <UsageBreakdown usage={usage} quote={{ credits: 8 }} />,
    },
    {
      name: 'consistent, quoted otherwise',
      node: <UsageBreakdown usage={usage} quote={{ credits: 10 }} />,
    },
    { name: 'inconsistent total', node: <UsageBreakdown usage={{ ...usage, credits: 12 }} /> },
    {
      name: 'inconsistent row',
      node: (
        <UsageBreakdown
          usage={{
            credits: 5,
            details: [{ toolId: 'upscale', price: 2, amount: 2, credits: 5, failed: false }],
          }}
        />
      ),
    },
  ],
  TaskStatusBadge: (_sample: SampleText): StateCell[] =>
    (['idle', 'ACCEPTED', 'IN_PROGRESS', 'reconnecting', 'COMPLETED', 'FAILED'] as const).map(
      (status) => ({ name: status, node: <TaskStatusBadge status={status} /> }),
    ),
  TaskEventList: (_sample: SampleText): StateCell[] => [
    { name: 'empty', node: <TaskEventList /> },
    { name: 'listed', node: <TaskEventList events={events} /> },
  ],
  NotificationActions: (sample: SampleText): StateCell[] => [
    {
      name: 'listed',
      node: (
        <NotificationActions
          title={sample.notificationTitle}
          actions={notificationActions}
          appSchemes={['myapp']}
        />
      ),
    },
    {
      name: 'listed (myapp: not in appSchemes, left out)',
      node: <NotificationActions title={sample.notificationTitle} actions={notificationActions} />,
    },
    {
      name: 'listed, labelled',
      node: (
        <NotificationActions
          title={sample.notificationTitle}
          actions={[{ ...notificationActions[0], label: sample.notificationTitle }]}
          appSchemes={['myapp']}
        />
      ),
    },
    {
      name: 'empty (unsafe links dropped)',
      node: (
        <NotificationActions
          title={sample.notificationTitle}
          actions={dangerousActions}
          appSchemes={['myapp']}
          emptyText={sample.noLink}
        />
      ),
    },
  ],
  TaskListView: (sample: SampleText): StateCell[] => {
    const items = taskListItems(sample.tasks);
    return [
      { name: 'empty', node: <TaskListView onDismiss={() => {}} /> },
      ...items.map((item) => ({
        name: `listed: ${item.entry?.task ?? ''}`,
        node: <TaskListView items={[item]} onDismiss={() => {}} />,
      })),
      {
        // Get Result failed for good (the service no longer has the task): shown as such.
        name: 'listed: read failed',
        node: (
          <TaskListView
            items={[{ ...items[1], record: undefined, error: { status: 404 } }]}
            onDismiss={() => {}}
          />
        ),
      },
      {
        // A start cut by a reload before its task id came: its outcome is unknown.
        name: 'listed: outcome unknown',
        node: (
          <TaskListView
            items={[
              { start: { key: 'render', task: sample.tasks[1], startedAt: Date.now() - 60_000 } },
            ]}
            onDismiss={() => {}}
          />
        ),
      },
      { name: 'listed: all', node: <TaskListView items={items} onDismiss={() => {}} /> },
    ];
  },
};

/** The name of a component whose states {@link componentStates} lists. */
export type ComponentName = keyof typeof componentStates;
