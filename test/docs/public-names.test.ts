/**
 * The public names of every entry of package.json's `exports`: each is a promise to keep, so a new
 * export (or a dropped one) is a decision made here, in the same change, and not an accident of an
 * `export *`. Every name has a use for an app, a test kit or a service implementer; the zod schemas,
 * tolerances and wording helpers the client checks answers with stay inside. Entries added later
 * (taskwire/server and taskwire/check joined in 0.3) fail the first test until they are listed.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readApiEntries, type ApiEntry } from '../../scripts/api-reference.mjs';
import { readExportedNames } from '../support/exported-names.js';

const root = path.resolve(import.meta.dirname, '../..');

const publicNames: Record<string, string[]> = {
  // React: the provider, the hooks and their options, the components and their messages, the
  // journal; and, not listed here, every name of taskwire/client again.
  taskwire: [
    'AnyTaskClient',
    'CreditCostPreview',
    'CreditCostPreviewMessages',
    'CreditCostPreviewProps',
    'CreditCostPreviewRenderProps',
    'CreditCostPreviewState',
    'CreditCostPreviewStatus',
    'CreditMessages',
    'ErrorCodeName',
    'ErrorMessages',
    'ErrorReasonName',
    'ExecuteTaskVariables',
    'Locale',
    'NotificationAction',
    'NotificationActions',
    'NotificationActionsMessages',
    'NotificationActionsProps',
    'NotificationActionsState',
    'PollStopReason',
    'PollingPolicyOptions',
    'ReadSharedRecord',
    'Register',
    'RegisteredTasks',
    'SharedPollClient',
    'SharedPollContext',
    'StatusMessages',
    'SubmitTaskVariables',
    'TaskDisplayStatus',
    'TaskEventList',
    'TaskEventListItem',
    'TaskEventListMessages',
    'TaskEventListProps',
    'TaskEventListState',
    'TaskJournal',
    'TaskJournalEntry',
    'TaskJournalMode',
    'TaskJournalOptions',
    'TaskJournalStart',
    'TaskJournalStorage',
    'TaskJournalStorageArea',
    'TaskJournalSubmitBody',
    'TaskList',
    'TaskListItem',
    'TaskListItemState',
    'TaskListMessages',
    'TaskListProps',
    'TaskListStartItem',
    'TaskListTaskItem',
    'TaskListView',
    'TaskListViewItem',
    'TaskListViewProps',
    'TaskListViewState',
    'TaskOptionsQueryConfig',
    'TaskProgress',
    'TaskProgressMessages',
    'TaskProgressProps',
    'TaskProgressState',
    'TaskResultQueryConfig',
    'TaskStatusBadge',
    'TaskStatusBadgeProps',
    'TaskStatusBadgeState',
    'TaskStatusInput',
    'TaskStreamState',
    'TaskStreamStatus',
    'TaskwireMessageGroup',
    'TaskwireMessages',
    'TaskwireMessagesOverride',
    'TaskwireMessagesProvider',
    'TaskwireMessagesProviderProps',
    'TaskwireProvider',
    'TaskwireProviderProps',
    'TaskwireQueryOptions',
    'TimeLeftMessages',
    'ToolMessages',
    'UsageBreakdown',
    'UsageBreakdownMessages',
    'UsageBreakdownProps',
    'UsageBreakdownState',
    'UseCompletionNoticeOptions',
    'UseExecuteTaskResult',
    'UseSubmitTaskOptions',
    'UseSubmitTaskResult',
    'UseTaskJournalResult',
    'UseTaskListOptions',
    'UseTaskListResult',
    'UseTaskOptionsOptions',
    'UseTaskOptionsResult',
    'UseTaskResultOptions',
    'UseTaskResultResult',
    'UseTaskStreamOptions',
    'UseTaskStreamResult',
    'createTaskJournal',
    'englishMessages',
    'errorText',
    'isWithinBudget',
    'requestNotificationPermission',
    'streamDisplayStatus',
    'taskOptionsQueryOptions',
    'taskResultQueryOptions',
    'taskwireKeys',
    'useCompletionNotice',
    'useExecuteTask',
    'useJournalEntry',
    'useSubmitTask',
    'useTaskClient',
    'useTaskJournal',
    'useTaskList',
    'useTaskOptions',
    'useTaskResult',
    'useTaskStream',
  ],
  // Vue: the plugin, the composables of the React hooks' names with their options and results, the
  // task map's registration, and the framework-free client and journal; nothing that loads React.
  'taskwire/vue': [
    'ExecuteTaskVariables',
    'Register',
    'RegisteredTasks',
    'SubmitTaskVariables',
    'TaskJournal',
    'TaskListItem',
    'TaskListStartItem',
    'TaskListTaskItem',
    'TaskStreamControls',
    'TaskStreamState',
    'TaskStreamStatus',
    'TaskwirePlugin',
    'TaskwirePluginOptions',
    'UseExecuteTaskResult',
    'UseSubmitTaskOptions',
    'UseSubmitTaskResult',
    'UseTaskListOptions',
    'UseTaskListResult',
    'UseTaskOptionsOptions',
    'UseTaskOptionsResult',
    'UseTaskResultOptions',
    'UseTaskResultResult',
    'UseTaskStreamOptions',
    'UseTaskStreamResult',
    'createTaskClient',
    'createTaskJournal',
    'useExecuteTask',
    'useSubmitTask',
    'useTaskList',
    'useTaskOptions',
    'useTaskResult',
    'useTaskStream',
  ],
  // The client, its errors and activity feed, and the types of the records and events it returns.
  'taskwire/client': [
    'ActivityCall',
    'AnswerActivity',
    'ClientOperation',
    'CompletedEvent',
    'CustomEvent',
    'ErrorActivity',
    'ErrorBody',
    'EventReference',
    'ExecuteRecord',
    'FailedEvent',
    'GetResultOptions',
    'JsonObject',
    'NotificationRequest',
    'OptionsResult',
    'PartialResultEvent',
    'Progress',
    'ProgressEvent',
    'RequestActivity',
    'RequestOptions',
    'RetryActivity',
    'StreamEvent',
    'StreamEventActivity',
    'StreamOptions',
    'SubmitAnswer',
    'SubmitOptions',
    'TaskClient',
    'TaskClientConfig',
    'TaskCustomEvent',
    'TaskEventsMessage',
    'TaskEventsOptions',
    'TaskFailure',
    'TaskName',
    'TaskParams',
    'TaskRecord',
    'TaskResult',
    'TaskSchema',
    'TaskSchemas',
    'TaskStatus',
    'TaskStream',
    'TaskStreamEvent',
    'TaskwireActivity',
    'TaskwireActivityListener',
    'TaskwireError',
    'TaskwireErrorCode',
    'TaskwireErrorDetails',
    'TokenSource',
    'UnknownTaskEvent',
    'Usage',
    'UsageDetail',
    'createTaskClient',
    'isStreamEventType',
    'isTerminalStatus',
  ],
  // The reference service, its demo tasks and tokens, defineTask, the OpenAPI document.
  'taskwire/reference': [
    'AnyTaskDefinition',
    'Charge',
    'DEMO_CLIENT_TOKEN',
    'DEMO_USER_TOKEN',
    'DEMO_USER_TOKENS',
    'ErrorReason',
    'Monetization',
    'NotificationAction',
    'OTHER_USER_TOKEN',
    'OpenApiDocument',
    'OpenApiDocumentOptions',
    'RateLimit',
    'ReferenceNotification',
    'ReferenceService',
    'ReferenceServiceConfig',
    'ReferenceServiceLimits',
    'TaskContext',
    'TaskDefinition',
    'createOpenApiDocument',
    'createReferenceService',
    'defineTask',
    'demoTaskSchemas',
    'demoTasks',
  ],
  // The reference service (or any { fetch }) on node:http.
  'taskwire/reference/node': [
    'FetchHandler',
    'FetchHandlerHolder',
    'MountableService',
    'NodeHandlerOptions',
    'NodeRequestListener',
    'ReferenceServer',
    'ServedRequest',
    'StartReferenceServerOptions',
    'createNodeHandler',
    'startReferenceServer',
  ],
  // The Vite plugin that mounts the reference service on the dev server.
  'taskwire/vite': ['TaskwireReferenceOptions', 'taskwireReference'],
  // The proxy that keeps the app token on the server, route handlers, and the memory event log.
  'taskwire/server': [
    'DEFAULT_PROXY_MAX_BODY_BYTES',
    'DEFAULT_PROXY_REQUEST_TIMEOUT_MS',
    'DEFAULT_PROXY_STREAM_IDLE_TIMEOUT_MS',
    'EventLog',
    'EventLogEntry',
    'EventLogError',
    'EventLogErrorKind',
    'EventLogKey',
    'EventLogLimits',
    'EventLogRead',
    'FetchHandlerObject',
    'ProxyFetch',
    'ProxyTokenSource',
    'RouteHandler',
    'RouteHandlers',
    'TaskProxy',
    'TaskProxyAuthorization',
    'TaskProxyErrorReason',
    'TaskProxyOptions',
    'createTaskProxy',
    'memoryEventLog',
    'routeHandlers',
  ],
  // The event log of resumable streams in Redis Streams (over the optional `redis` peer).
  'taskwire/server/redis': ['RedisEventLogClient', 'RedisEventLogConnection', 'redisEventLog'],
  // The contract's checks against a team's own service.
  'taskwire/check': [
    'CHECKS',
    'CheckId',
    'CheckLevel',
    'CheckOutcome',
    'CheckProgress',
    'CheckReport',
    'CheckResult',
    'CheckServiceOptions',
    'SilentTask',
    'checkService',
    'formatCheckReport',
    'toJUnitXml',
  ],
  // The test kit: scripted tasks, faults, recorded requests, renders with the providers, msw handlers.
  'taskwire/testing': [
    'Endpoint',
    'Fault',
    'FetchService',
    'RecordedRequest',
    'RenderHookWithTaskwireOptions',
    'RenderHookWithTaskwireResult',
    'RenderWithTaskwireOptions',
    'RenderWithTaskwireResult',
    'RequestLog',
    'ScriptStep',
    'ScriptTaskOptions',
    'TaskwireHandlersOptions',
    'TaskwireTestContext',
    'TaskwireTestOptions',
    'recordRequests',
    'renderHookWithTaskwire',
    'renderWithTaskwire',
    'scriptTask',
    'taskwireHandlers',
    'withFaults',
  ],
  // The devtools mount.
  'taskwire/devtools': ['DevtoolsPlacement', 'TaskwireDevtools', 'TaskwireDevtoolsProps'],
  // German messages.
  'taskwire/locales/de': ['de'],
};

/** The names each entry exports, values and types, sorted, by specifier. */
function exportedNames(entries: ApiEntry[]): Map<string, string[]> {
  const byEntry = new Map<string, string[]>(entries.map((entry) => [entry.specifier, []]));
  for (const { name, entry } of readExportedNames(entries).names)
    byEntry.get(entry.specifier)?.push(name);
  for (const names of byEntry.values()) names.sort();
  return byEntry;
}

const entries = readApiEntries(root);
const exported = exportedNames(entries);

describe('public names', () => {
  it('lists every entry of the exports map', () => {
    expect(entries.map((entry) => entry.specifier).sort()).toEqual(Object.keys(publicNames).sort());
  });

  it('gives taskwire every name of taskwire/client again', () => {
    const rootNames = exported.get('taskwire') ?? [];
    const missing = (exported.get('taskwire/client') ?? []).filter(
      (name) => !rootNames.includes(name),
    );
    expect(missing).toEqual([]);
  });

  for (const [specifier, listed] of Object.entries(publicNames)) {
    it(`${specifier} exports exactly its listed names`, () => {
      const clientNames = specifier === 'taskwire' ? (exported.get('taskwire/client') ?? []) : [];
      const names = (exported.get(specifier) ?? []).filter((name) => !clientNames.includes(name));
      expect(names, `${specifier}: a new export is a decision; list it here`).toEqual(
        [...listed].sort(),
      );
    });
  }

  it('keeps the internals of the client out of taskwire and taskwire/client', () => {
    const internals = [
      'taskRecordSchema',
      'envelopeSchema',
      'knownStreamEventSchemas',
      'CREDITS_TOLERANCE',
      'describeIssues',
      'parseRetryAfter',
      'TASK_NAME_PATTERN',
    ];
    for (const specifier of ['taskwire', 'taskwire/client']) {
      expect(exported.get(specifier)?.filter((name) => internals.includes(name))).toEqual([]);
    }
  });
});
