'use client';
import { useCallback, useMemo, useSyncExternalStore } from 'react';
import { withCheckedParams } from '../state/checked-entry-params.js';
import { EMPTY_JOURNAL, type JournalSnapshot } from '../state/journal-session.js';
import type { TaskJournalEntry } from '../state/task-journal.js';
import { useJournalSession, useTaskClient } from './taskwire-provider.js';

/** What {@link useTaskJournal} returns. */
export interface UseTaskJournalResult {
  /** The tasks of this client's scope in the provider's journal, newest first. */
  entries: readonly TaskJournalEntry[];
  /** Removes the entry of task `id` (the task itself goes on at the service). */
  remove(id: string): void;
  /** Removes every entry of this client's scope. */
  clear(): void;
}

const noJournal = () => () => undefined;
const emptyJournal = () => EMPTY_JOURNAL;

/**
 * The provider's journal session as it is now: entries and starts of this client's scope. On the
 * server, and in the render that hydrates a server's HTML, it is empty (nothing is read during
 * those renders); the entries come right after.
 */
export function useJournalSnapshot(): JournalSnapshot {
  const session = useJournalSession();
  const { tasks } = useTaskClient();
  const snapshot = useSyncExternalStore(
    session ? session.subscribe : noJournal,
    session ? session.getSnapshot : emptyJournal,
    emptyJournal,
  );
  // Storage is untrusted: kept params reach the page only if they pass the task's schema.
  return useMemo(() => withCheckedParams(snapshot, tasks), [snapshot, tasks]);
}

/**
 * The tasks the provider's journal holds for this client's scope, kept current as tasks start and
 * end, in this tab or (with local storage) another. Without a journal, no entries. Their statuses
 * follow every record a query of this scope reads (the provider sees to it).
 */
export function useTaskJournal(): UseTaskJournalResult {
  const session = useJournalSession();
  const { entries } = useJournalSnapshot();
  const remove = useCallback((id: string) => session?.remove(id), [session]);
  const clear = useCallback(() => session?.clear(), [session]);
  return { entries, remove, clear };
}

/**
 * The journal entry started under `resumeKey` in this client's scope, or `undefined`: a submit flow
 * resumes with `useTaskResult(task, entry?.id)` after a reload, and with a journal created with
 * `keepParams: true` its form starts from `entry.params`, the params the task was started with.
 */
export function useJournalEntry(resumeKey: string): TaskJournalEntry | undefined {
  return useTaskJournal().entries.find((entry) => entry.key === resumeKey);
}
