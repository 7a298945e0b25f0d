import type { TaskStreamStatus } from '../state/task-stream-state.js';
import type { TaskDisplayStatus } from './task-status.js';

/**
 * The display status of a `useTaskStream` result, so a stream drives `TaskProgress` and
 * `TaskStatusBadge` in one line: `<TaskProgress status={streamDisplayStatus(stream)} … />`.
 * `connecting` shows as queued; `streaming` as running; `recovering` (the stream broke, or the page
 * was reloaded, and the outcome is read with Get Result; docs/protocol.md, "The hooks") as running
 * while those reads answer, since the task runs and its record's percent and time left are shown,
 * and as reconnecting while they fail (`error` holds the failed read); `error` as failed, since the
 * outcome is unknown and the caller should show `stream.error`; `stopped` as idle, since this page
 * no longer follows the task. Given only a status, `recovering` shows as reconnecting, since nothing
 * says the reads answer: pass the stream itself.
 */
export function streamDisplayStatus(
  stream: { status: TaskStreamStatus; error?: unknown } | TaskStreamStatus,
): TaskDisplayStatus {
  const { status, error } = typeof stream === 'string' ? { status: stream, error: true } : stream;
  switch (status) {
    case 'idle':
    case 'stopped':
      return 'idle';
    case 'connecting':
      return 'queued';
    case 'streaming':
      return 'running';
    case 'recovering':
      return error === undefined || error === null ? 'running' : 'reconnecting';
    case 'completed':
      return 'completed';
    case 'failed':
    case 'error':
      return 'failed';
    default:
      return status satisfies never;
  }
}
