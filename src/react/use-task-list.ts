'use client';
import { useQueries } from '@tanstack/react-query';
import { useMemo } from 'react';
import { TaskwireError } from '../client/errors.js';
import type { PollingPolicyOptions } from '../state/polling-policy.js';
import { isTerminalStatus, type TaskRecord } from '../protocol/records.js';
import type { JournalSnapshot } from '../state/journal-session.js';
import type { TaskJournalEntry, TaskJournalStart } from '../state/task-journal.js';
import { taskResultQueryOptions } from './query-options.js';
import { useProvidedJournal, useTaskClient } from './taskwire-provider.js';
import { useJournalSnapshot } from './use-task-journal.js';
import type { TaskName } from '../protocol/task-schemas.js';
import type { RegisteredTasks } from './register.js';

/** Options of {@link useTaskList}. */
export interface UseTaskListOptions {
  /** Keeps only the entries of this task name. Defaults to every task. */
  task?: string;
  /**
   * `true` keeps only the entries that are not terminal (neither COMPLETED nor FAILED) and whose
   * reads have not failed for good, and the starts whose outcome is unknown. Defaults to `false`.
   */
  active?: boolean;
  /**
   * The polling schedule of the entries that are not terminal (see `PollingPolicyOptions`); the
   * same as a `useTaskResult` of the task gets by default, so the two share one poll.
   */
  polling?: PollingPolicyOptions;
}

/** A task of {@link useTaskList}: its journal entry, its record once read, and any lasting error. */
export interface TaskListTaskItem {
  /** The journal entry; its `status` follows the record. */
  entry: TaskJournalEntry;
  /** Never set on a task's item. */
  start?: undefined;
  /** The task's record from Get Result, `undefined` until it has been read. */
  record: TaskRecord | undefined;
  /**
   * The error that ended the task's reads for good (404 or 410: the service no longer has it; 401:
   * not allowed), `undefined` while reads go on. The task is shown as such, not as its last status.
   */
  error: TaskwireError | undefined;
}

/**
 * A start of {@link useTaskList} whose outcome is unknown: recorded before its request left, and
 * cut (by a reload) before the service's answer brought a task id.
 */
export interface TaskListStartItem {
  /** Never set on a start's item: no task id is known. */
  entry?: undefined;
  /** The start as the journal recorded it. */
  start: TaskJournalStart;
  /** Never set on a start's item. */
  record?: undefined;
  /** Never set on a start's item. */
  error?: undefined;
}

/** One item of {@link useTaskList}: a task, or a start whose outcome is unknown (`start` set). */
export type TaskListItem = TaskListTaskItem | TaskListStartItem;

/** What {@link useTaskList} returns: the journal's tasks and unknown starts, newest first. */
export type UseTaskListResult = TaskListItem[];

/** The error of a read that asking again will not heal, or `undefined`. */
function lastingError(error: unknown): TaskwireError | undefined {
  return TaskwireError.isInstance(error) && !error.retryable ? error : undefined;
}

/** `useTaskList`'s work on the snapshot `useJournalSnapshot` gave, so `<TaskList>` subscribes once. */
export function useTaskListItems(
  snapshot: JournalSnapshot,
  { task, active = false, polling }: UseTaskListOptions,
): UseTaskListResult {
  const client = useTaskClient();
  const journal = useProvidedJournal();
  const { entries, starts } = snapshot;
  const shown = useMemo(
    () =>
      entries.filter(
        (entry) =>
          (task === undefined || entry.task === task) &&
          (!active || !isTerminalStatus(entry.status)),
      ),
    [entries, task, active],
  );
  const records = useQueries({
    queries: shown.map((entry) => {
      // A journal holds names as strings; the app's task map (Register) may be narrower.
      const name = entry.task as TaskName<RegisteredTasks>;
      const options = taskResultQueryOptions(client, name, entry.id, {
        ...(polling ? { polling } : {}),
        journal,
      });
      // A terminal task never changes again: read once when no record is cached (for its
      // progress and credits), never polled, never refetched on focus or mount.
      return isTerminalStatus(entry.status)
        ? { ...options, staleTime: Infinity, refetchInterval: false as const }
        : options;
    }),
  });
  const tasks: TaskListItem[] = [];
  shown.forEach((entry, index) => {
    const query = records[index];
    const error = lastingError(query?.error);
    if (active && error) return;
    tasks.push({ entry, record: query?.data as TaskRecord | undefined, error });
  });
  const unknown = starts
    .filter((start) => task === undefined || start.task === task)
    .map((start): TaskListItem => ({ start }));
  // Newest first, starts among the tasks by their start time.
  return [...tasks, ...unknown].sort(
    (a, b) => (b.entry ?? b.start).startedAt - (a.entry ?? a.start).startedAt,
  );
}

/**
 * The tasks the provider's journal holds for this client's scope, newest first, each with its
 * record: those not terminal are polled with the shared policy of `useTaskResult` (one request per
 * poll however many components, or tabs of the origin, watch a task), a terminal one is read once
 * if no record is cached and never polled. A task whose reads fail for good carries that `error`;
 * a start cut by a reload before its task id arrived is listed with `start` (its outcome is
 * unknown). Entry statuses follow the records. Without a journal, an empty list.
 */
export function useTaskList(options: UseTaskListOptions = {}): UseTaskListResult {
  return useTaskListItems(useJournalSnapshot(), options);
}
