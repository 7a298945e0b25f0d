/**
 * What a stream's record does to the cache entry that every view of its task reads
 * (docs/protocol.md, "The hooks"): it never takes a final record back, and never hides the `usage`
 * Get Result gave when the stream's own record has none.
 */
import { isTerminalStatus, type TaskRecord } from '../protocol/records.js';

/** The record to cache when a stream hands over `record` and the cache holds `cached`. */
export function mergeStreamRecord<Result>(
  cached: TaskRecord<Result> | undefined,
  record: TaskRecord<Result>,
): TaskRecord<Result> {
  if (cached === undefined) return record;
  // A final record, read by a poll or another tab, is never taken back by a live one.
  if (isTerminalStatus(cached.status) && !isTerminalStatus(record.status)) return cached;
  // A service may leave `usage` out of `task.completed` while Get Result has it.
  if (record.usage === undefined && cached.usage !== undefined) {
    return { ...record, usage: cached.usage };
  }
  return record;
}

/**
 * Whether a cached record is a completed task's without `usage`, which Get Result may still have
 * (a stream's `task.completed` without it): worth one more read, not a poll.
 */
export function lacksFinalUsage(record: TaskRecord<unknown>): boolean {
  return record.status === 'COMPLETED' && record.usage === undefined;
}
