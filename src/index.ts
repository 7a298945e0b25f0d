/**
 * `taskwire`: React hooks and components for the task workflow service, over the framework-free
 * client (whose names are exported here again, so one import serves an app).
 *
 * @packageDocumentation
 */
export * from './react/index.js';
export * from './components/index.js';
export * from './client/index.js';
export type { PollingPolicyOptions, PollStopReason } from './state/polling-policy.js';
export type { TaskStreamState, TaskStreamStatus } from './state/task-stream-state.js';
export {
  createTaskJournal,
  type TaskJournal,
  type TaskJournalEntry,
  type TaskJournalMode,
  type TaskJournalOptions,
  type TaskJournalStart,
  type TaskJournalStorage,
  type TaskJournalStorageArea,
  type TaskJournalSubmitBody,
} from './state/task-journal.js';
export type { ReadSharedRecord, SharedPollContext } from './state/tab-poll-sharing.js';
export type { SharedPollClient } from './state/check-shared-record.js';
