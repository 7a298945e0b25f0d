/**
 * The seam between the framework-free core and a binding (docs/protocol.md, "The hooks"): all that
 * `taskwire/vue` takes from src/query, src/state, src/client and src/protocol, and nothing it could
 * copy instead. A binding adds only its framework's reactivity and lifecycle: what to recompute when
 * an argument changes, what to start once mounted and stop with its scope.
 */
export type { TaskwireError } from '../client/errors.js';
export type { TaskClient } from '../client/types.js';
export type { EventReference, TaskRecord } from '../protocol/records.js';
export type { ExecuteRecord, OptionsResult, SubmitAnswer } from '../protocol/start-answers.js';
export type {
  TaskCustomEvent,
  TaskName,
  TaskParams,
  TaskResult,
} from '../protocol/task-schemas.js';
export { withCheckedParams } from '../state/checked-entry-params.js';
export { createDebounce } from '../state/debounced-change.js';
export { createRecordEventTracker } from '../state/event-tracker.js';
export { EMPTY_JOURNAL, type JournalSession } from '../state/journal-session.js';
export { rememberingQuoteStanding } from '../state/quote-standing.js';
export { scopedJournalSession } from '../state/scoped-journal-session.js';
export { createStreamJournals } from '../state/stream-end-journal.js';
export { createSubmitCoalescer } from '../state/submit-coalescer.js';
export type { SubmitWriteAhead } from '../state/submit-write-ahead.js';
export type { TaskJournal } from '../state/task-journal.js';
export type { TaskStreamState } from '../state/task-stream-state.js';
export { executeTaskMutationOptions } from './execute-task-mutation.js';
export { followRecordStatuses } from './follow-record-statuses.js';
export type * from './hook-options.js';
export { quoteQuery, watchedRecordQuery } from './hook-queries.js';
export { hookStreamController } from './hook-stream-controller.js';
export { queryStreamCallbacks } from './query-stream-callbacks.js';
export type { RegisteredTasks } from './register.js';
export * from './submit-task-mutation.js';
export * from './task-list-queries.js';
