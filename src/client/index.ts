/**
 * `taskwire/client`: the framework-free client of the task workflow service, the types of every
 * record and event it returns (the protocol, `src/protocol/`), and the error class. No React in
 * here.
 */
export { createTaskClient } from './create-task-client.js';
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

// The records and events the client returns, by type. Their zod schemas, tolerances and wording
// helpers stay inside: the client checks every answer with them, and an app needs only the types.
export {
  isTerminalStatus,
  type EventReference,
  type JsonObject,
  type Progress,
  type TaskFailure,
  type TaskRecord,
  type TaskStatus,
} from '../protocol/records.js';
export type { Usage, UsageDetail } from '../protocol/usage.js';
export type { ErrorBody } from '../protocol/error-body.js';
export type { SubmitAnswer, ExecuteRecord, OptionsResult } from '../protocol/start-answers.js';
export {
  isStreamEventType,
  type CompletedEvent,
  type CustomEvent,
  type FailedEvent,
  type PartialResultEvent,
  type ProgressEvent,
  type StreamEvent,
  type UnknownTaskEvent,
} from '../protocol/stream-events.js';
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
