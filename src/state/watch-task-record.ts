/**
 * How the state machines read a task's record while they wait for its outcome: a broken stream
 * hands over to one of these instead of posting (and paying) again. The React layer gives one that
 * shares TanStack Query's poll with every `useTaskResult` of the task (src/query/query-record-watcher.ts).
 */
import type { TaskwireError } from '../client/errors.js';
import type { TaskRecord } from '../protocol/records.js';

/** What a watch reports: every record read, and every failed read. */
export interface TaskRecordListener<Result> {
  /** A record was read (the same record may be reported again). */
  onRecord(record: TaskRecord<Result>): void;
  /** A read failed; the watch goes on while the error is retryable and the policy polls. */
  onError(error: TaskwireError): void;
}

/** Starts watching the record of task `taskId`; returns the function that stops the watch. */
export type WatchTaskRecord<Result> = (
  taskId: string,
  listener: TaskRecordListener<Result>,
) => () => void;
