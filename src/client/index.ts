/**
 * `taskwire/client`: the framework-free client of the task workflow service, with the zod schemas
 * and types of every record and event (the protocol, `src/protocol/`), and the error class. No
 * React in here.
 */
export { createTaskClient, DEFAULT_EXECUTE_TIMEOUT_MS } from './create-task-client.js';
export { DEFAULT_MAX_EVENT_BYTES } from './stream/sse-reader.js';
export { TaskwireError, type TaskwireErrorCode, type TaskwireErrorDetails } from './errors.js';
export type * from './types.js';
export type {
  ActivityCall,
  AnswerActivity,
  ClientOperation,
  ErrorActivity,
  RequestActivity,
  RetryActivity,
  StreamEventActivity,
  TaskwireActivity,
  TaskwireActivityListener,
} from './activity-types.js';

export { parseRetryAfter } from '../protocol/retry-after.js';
export { isSafeAppLink, isSafeWebLink } from '../protocol/links.js';
export { TASK_NAME_PATTERN } from '../protocol/names.js';
export { describeIssues, type IssueWording } from '../protocol/describe-issues.js';
export {
  envelopeSchema,
  eventReferenceSchema,
  failureSchema,
  isTerminalStatus,
  jsonObjectSchema,
  progressSchema,
  taskIdSchema,
  taskRecordSchema,
  taskStatusSchema,
  TERMINAL_STATUSES,
  type EventReference,
  type JsonObject,
  type Progress,
  type TaskFailure,
  type TaskRecord,
  type TaskStatus,
} from '../protocol/records.js';
export {
  chargedCredits,
  creditsAgree,
  CREDITS_TOLERANCE,
  findUsageInconsistency,
  usageDetailSchema,
  usageSchema,
  usageShapeSchema,
  type Usage,
  type UsageDetail,
} from '../protocol/usage.js';
export { errorBodySchema, type ErrorBody } from '../protocol/error-body.js';
export {
  executeRecordSchema,
  optionsResultSchema,
  submitAnswerSchema,
  type SubmitAnswer,
  type ExecuteRecord,
  type OptionsResult,
} from '../protocol/start-answers.js';
export {
  isFinalEvent,
  isStreamEventType,
  type CompletedEvent,
  type CustomEvent,
  type FailedEvent,
  type PartialResultEvent,
  type ProgressEvent,
  type StreamEvent,
  type UnknownTaskEvent,
} from '../protocol/stream-events.js';
export {
  completedEventSchema,
  failedEventSchema,
  knownStreamEventSchemas,
  partialResultEventSchema,
  progressEventSchema,
} from '../protocol/stream-event-schemas.js';
export type { NotificationRequest } from '../protocol/notification.js';
export type {
  TaskCustomEvent,
  TaskName,
  TaskParams,
  TaskResult,
  TaskSchema,
  TaskSchemas,
  TaskStreamEvent,
} from '../protocol/task-schemas.js';
