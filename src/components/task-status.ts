/**
 * The task states the components show, and how the service's states map onto them, so that a
 * component can take `record.status` (`ACCEPTED`, …) as well as its own lower-case names.
 */
import type { TaskStatus } from '../protocol/records.js';

/**
 * A task's state as the components show it: not started, queued, running, reconnecting (a broken
 * stream whose outcome is being read again, so nothing is known to be running), completed or failed.
 */
export type TaskDisplayStatus =
  'idle' | 'queued' | 'running' | 'reconnecting' | 'completed' | 'failed';

/** A status prop: one of {@link TaskDisplayStatus} or the service's {@link TaskStatus}. */
export type TaskStatusInput = TaskDisplayStatus | TaskStatus;

const FROM_SERVICE: Record<TaskStatus, TaskDisplayStatus> = {
  ACCEPTED: 'queued',
  IN_PROGRESS: 'running',
  COMPLETED: 'completed',
  FAILED: 'failed',
};

const DISPLAY_STATUSES: ReadonlySet<string> = new Set([
  'idle',
  'queued',
  'running',
  'reconnecting',
  'completed',
  'failed',
]);

/** The display status of `status`, or `undefined` when it is neither a display nor a service status. */
export function toDisplayStatus(status: unknown): TaskDisplayStatus | undefined {
  if (typeof status !== 'string') return undefined;
  if (DISPLAY_STATUSES.has(status)) return status as TaskDisplayStatus;
  if (Object.hasOwn(FROM_SERVICE, status)) return FROM_SERVICE[status as TaskStatus];
  return undefined;
}

/** The word for each display status, shown by the badge, the progress bar and the task list. */
export type StatusMessages = Record<TaskDisplayStatus, string>;

/** English status words, the default. */
export const statusMessages: StatusMessages = {
  idle: 'Not started',
  queued: 'Queued',
  running: 'Running',
  reconnecting: 'Reconnecting',
  completed: 'Completed',
  failed: 'Failed',
};

/**
 * The words shown for a display status, the one place the components take them from: `messages`
 * (English by default: "Not started", "Queued", "Running", "Reconnecting", "Completed", "Failed").
 */
export function describeStatus(
  status: TaskDisplayStatus,
  messages: StatusMessages = statusMessages,
): string {
  return messages[status];
}
