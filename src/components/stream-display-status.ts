import type { TaskStreamStatus } from '../state/task-stream-state.js';
import type { TaskDisplayStatus } from './task-status.js';

/**
 * The display status of a `useTaskStream` status, so a stream drives `TaskProgress` and
 * `TaskStatusBadge` in one line: `<TaskProgress status={streamDisplayStatus(stream.status)} … />`.
 * `connecting` shows as queued; `streaming` and `recovering` as running (the task runs on while
 * its outcome is read again); `error` as failed, since the outcome is unknown and the caller should
 * show `stream.error`; `stopped` as idle, since this page no longer follows the task.
 */
export function streamDisplayStatus(status: TaskStreamStatus): TaskDisplayStatus {
  switch (status) {
    case 'idle':
    case 'stopped':
      return 'idle';
    case 'connecting':
      return 'queued';
    case 'streaming':
    case 'recovering':
      return 'running';
    case 'completed':
      return 'completed';
    case 'failed':
    case 'error':
      return 'failed';
    default:
      return status satisfies never;
  }
}
