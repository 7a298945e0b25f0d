'use client';
import { useQueries } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { UseTaskListOptions } from '../query/hook-options.js';
import {
  taskListEntries,
  taskListItems,
  taskListQueries,
  type TaskListItem,
} from '../query/task-list-queries.js';
import type { JournalSnapshot } from '../state/journal-session.js';
import { useProvidedJournal, useTaskClient } from './taskwire-provider.js';
import { useJournalSnapshot } from './use-task-journal.js';

export type { UseTaskListOptions } from '../query/hook-options.js';
export type {
  TaskListItem,
  TaskListStartItem,
  TaskListTaskItem,
} from '../query/task-list-queries.js';

/** What {@link useTaskList} returns: the journal's tasks and unknown starts, newest first. */
export type UseTaskListResult = TaskListItem[];

/** `useTaskList`'s work on the snapshot `useJournalSnapshot` gave, so `<TaskList>` subscribes once. */
export function useTaskListItems(
  snapshot: JournalSnapshot,
  { task, active, polling }: UseTaskListOptions,
): UseTaskListResult {
  const client = useTaskClient();
  const journal = useProvidedJournal();
  const { entries } = snapshot;
  const shown = useMemo(() => taskListEntries(entries, { task, active }), [entries, task, active]);
  const records = useQueries({
    queries: taskListQueries(client, shown, { ...(polling ? { polling } : {}) }, journal),
  });
  return taskListItems(shown, records, snapshot, { task, active });
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
