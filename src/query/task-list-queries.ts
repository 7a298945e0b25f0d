/**
 * The task list of every binding (`useTaskList`, `<TaskList>`), over `@tanstack/query-core`: which
 * journal entries it shows, the queries that read them (a running task polled with the shared
 * policy of `useTaskResult`, a terminal one read once and never polled) and the items those answers
 * make, newest first (docs/protocol.md, "The hooks").
 */
import { TaskwireError } from '../client/errors.js';
import type { TaskClient } from '../client/types.js';
import { isTerminalStatus, type TaskRecord } from '../protocol/records.js';
import type { JournalSnapshot } from '../state/journal-session.js';
import type { TaskJournal, TaskJournalEntry, TaskJournalStart } from '../state/task-journal.js';
import type { UseTaskListOptions } from './hook-options.js';
import { taskResultQueryOptions, type TaskwireQueryOptions } from './query-options.js';

/** A task of `useTaskList`: its journal entry, its record once read, and any lasting error. */
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
 * A start of `useTaskList` whose outcome is unknown: recorded before its request left, and cut (by
 * a reload) before the service's answer brought a task id.
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

/** One item of `useTaskList`: a task, or a start whose outcome is unknown (`start` set). */
export type TaskListItem = TaskListTaskItem | TaskListStartItem;

/** The error of a read that asking again will not heal, or `undefined`. */
function lastingError(error: unknown): TaskwireError | undefined {
  return TaskwireError.isInstance(error) && !error.retryable ? error : undefined;
}

/** The journal entries the list shows: those of `task`, and with `active` those not terminal. */
export function taskListEntries(
  entries: readonly TaskJournalEntry[],
  { task, active = false }: UseTaskListOptions,
): TaskJournalEntry[] {
  return entries.filter(
    (entry) =>
      (task === undefined || entry.task === task) && (!active || !isTerminalStatus(entry.status)),
  );
}

/** The queries that read the records of `shown`, in its order. */
export function taskListQueries(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a journal holds any task's names
  client: TaskClient<any>,
  shown: readonly TaskJournalEntry[],
  { polling }: UseTaskListOptions,
  journal: TaskJournal | undefined,
): TaskwireQueryOptions<TaskRecord>[] {
  return shown.map((entry) => {
    const options = taskResultQueryOptions(client, entry.task, entry.id, {
      ...(polling ? { polling } : {}),
      journal,
    });
    // A terminal task never changes again: read once when no record is cached (for its progress
    // and credits), never polled, never refetched on focus or mount.
    return isTerminalStatus(entry.status)
      ? { ...options, staleTime: Infinity, refetchInterval: false as const }
      : options;
  });
}

/**
 * The items of the list: each of `shown` with the answer of its query in `results` (same order),
 * a task whose reads failed for good left out when `active`, and the snapshot's starts of `task`,
 * all newest first.
 */
export function taskListItems(
  shown: readonly TaskJournalEntry[],
  results: readonly ({ data?: unknown; error?: unknown } | undefined)[],
  { starts }: JournalSnapshot,
  { task, active = false }: UseTaskListOptions,
): TaskListItem[] {
  const tasks: TaskListItem[] = [];
  shown.forEach((entry, index) => {
    const query = results[index];
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
