'use client';
import { useQueries } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { PollingPolicyOptions } from '../state/polling-policy.js';
import { isTerminalStatus, type TaskRecord } from '../protocol/records.js';
import type { TaskJournalEntry } from '../state/task-journal.js';
import { taskResultQueryOptions } from './query-options.js';
import { useProvidedJournal, useTaskClient } from './taskwire-provider.js';
import { useTaskJournal } from './use-task-journal.js';
import type { TaskName } from '../protocol/task-schemas.js';
import type { RegisteredTasks } from './register.js';

/** Options of {@link useTaskList}. */
export interface UseTaskListOptions {
  /** Keeps only the entries of this task name. Defaults to every task. */
  task?: string;
  /** `true` keeps only the entries that are not terminal (neither COMPLETED nor FAILED). */
  active?: boolean;
  /**
   * The polling schedule of the entries that are not terminal (see `PollingPolicyOptions`); the
   * same as a `useTaskResult` of the task gets by default, so the two share one poll.
   */
  polling?: PollingPolicyOptions;
}

/** One task of {@link useTaskList}: its journal entry, and its record once read. */
export interface TaskListItem {
  /** The journal entry; its `status` follows the record. */
  entry: TaskJournalEntry;
  /** The task's record from Get Result, `undefined` until it has been read. */
  record: TaskRecord | undefined;
}

/** What {@link useTaskList} returns: the journal's tasks, newest first. */
export type UseTaskListResult = TaskListItem[];

/** `useTaskList`'s work on the entries `useTaskJournal` gave, so `<TaskList>` subscribes once. */
export function useTaskListItems(
  entries: readonly TaskJournalEntry[],
  { task, active = false, polling }: UseTaskListOptions,
): UseTaskListResult {
  const client = useTaskClient();
  const journal = useProvidedJournal();
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
  return shown.map((entry, index) => ({
    entry,
    record: records[index]?.data as TaskRecord | undefined,
  }));
}

/**
 * The tasks the provider's journal holds for this client's scope, newest first, each with its
 * record: those not terminal are polled with the shared policy of `useTaskResult` (one request per
 * poll however many components, or tabs of the origin, watch a task), a terminal one is read once if no record is cached and
 * never polled. Entry statuses follow the records. Without a journal, an empty list.
 */
export function useTaskList(options: UseTaskListOptions = {}): UseTaskListResult {
  return useTaskListItems(useTaskJournal().entries, options);
}
