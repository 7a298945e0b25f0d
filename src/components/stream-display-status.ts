import type { TaskStreamStatus } from '../state/task-stream-state.js';
import type { TaskDisplayStatus } from './task-status.js';

/**
 * The display status of a `useTaskStream` status, so a stream drives `TaskProgress` and
 * `TaskStatusBadge` in one line: `<TaskProgress status={streamDisplayStatus(stream.status)} … />`.
 * `connecting` shows as queued; `streaming` as running; `recovering` as reconnecting, since the
 * stream broke and its outcome is being read with Get Result (docs/protocol.md, "The hooks"), so
 * "running" with a time left would be a claim nobody can back while the service may be gone;
 * `error` as failed, since the outcome is unknown and the caller should show `stream.error`;
 * `stopped` as idle, since this page no longer follows the task.
 */
export function streamDisplayStatus(status: TaskStreamStatus): TaskDisplayStatus {
  switch (status) {
    case 'idle':
    case 'stopped':
      return 'idle';
    case 'connecting':
      return 'queued';
    case 'streaming':
      return 'running';
    case 'recovering':
      return 'reconnecting';
    case 'completed':
      return 'completed';
    case 'failed':
    case 'error':
      return 'failed';
    default:
      return status satisfies never;
  }
}
