/**
 * `taskwire/client`: the framework-free client of the task workflow service, with the zod schemas
 * and types of every record and event, and the error class. No React in here.
 */
export { createTaskClient, DEFAULT_EXECUTE_TIMEOUT_MS } from './core/create-task-client.js';
export { DEFAULT_MAX_EVENT_BYTES } from './core/sse-reader.js';
export { parseRetryAfter } from './core/retry-after.js';
export { isStreamEventType } from './core/is-stream-event-type.js';
export { TaskwireError, type TaskwireErrorCode, type TaskwireErrorDetails } from './core/errors.js';
export { isSafeAppLink, isSafeWebLink } from './core/links.js';
export {
  chargedCredits,
  creditsAgree,
  CREDITS_TOLERANCE,
  describeIssues,
  envelopeSchema,
  errorBodySchema,
  eventReferenceSchema,
  failureSchema,
  findUsageInconsistency,
  isFinalEvent,
  isTerminalStatus,
  jsonObjectSchema,
  progressSchema,
  submitAnswerSchema,
  TASK_NAME_PATTERN,
  taskIdSchema,
  taskRecordSchema,
  taskStatusSchema,
  TERMINAL_STATUSES,
  usageDetailSchema,
  usageSchema,
  usageShapeSchema,
  type CompletedEvent,
  type CustomEvent,
  type ErrorBody,
  type EventReference,
  type ExecuteRecord,
  type FailedEvent,
  type JsonObject,
  type OptionsResult,
  type PartialResultEvent,
  type Progress,
  type ProgressEvent,
  type StreamEvent,
  type SubmitAnswer,
  type TaskFailure,
  type TaskRecord,
  type TaskStatus,
  type UnknownTaskEvent,
  type Usage,
  type UsageDetail,
} from './core/schemas.js';
export { executeRecordSchema, optionsResultSchema } from './core/start-task.js';
export {
  completedEventSchema,
  failedEventSchema,
  knownStreamEventSchemas,
  partialResultEventSchema,
  progressEventSchema,
} from './core/stream-event-schemas.js';
export type {
  GetResultOptions,
  NotificationRequest,
  RequestOptions,
  StreamOptions,
  SubmitOptions,
  TaskClient,
  TaskClientConfig,
  TaskCustomEvent,
  TaskName,
  TaskParams,
  TaskResult,
  TaskSchema,
  TaskSchemas,
  TaskStream,
  TaskStreamEvent,
  TokenSource,
} from './core/types.js';
