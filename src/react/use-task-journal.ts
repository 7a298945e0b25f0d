'use client';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useSyncExternalStore } from 'react';
import type { TaskRecord } from '../protocol/records.js';
import type { TaskJournalEntry } from '../state/task-journal.js';
import { useProvidedJournal, useTaskClient } from './taskwire-provider.js';

/** What {@link useTaskJournal} returns. */
export interface UseTaskJournalResult {
  /** The tasks of this client's scope in the provider's journal, newest first. */
  entries: readonly TaskJournalEntry[];
  /** Removes the entry of task `id` (the task itself goes on at the service). */
  remove(id: string): void;
  /** Removes every entry of this client's scope. */
  clear(): void;
}

const NO_ENTRIES: readonly TaskJournalEntry[] = [];
const noJournal = () => () => undefined;

/**
 * The tasks the provider's journal holds for this client's scope, kept current as tasks start and
 * end, in this tab or (with local storage) another. Without a journal, no entries. While it is
 * mounted, every record a query of this scope reads updates its entry's status.
 */
export function useTaskJournal(): UseTaskJournalResult {
  const journal = useProvidedJournal();
  const { scope } = useTaskClient();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!journal) return;
    // Here rather than in useTaskResult, so an app without a journal pays nothing for it.
    return queryClient.getQueryCache().subscribe(({ query }) => {
      const [root, queryScope, kind, , id] = query.queryKey as unknown[];
      const record = query.state.data as TaskRecord | undefined;
      if (root !== 'taskwire' || queryScope !== scope || kind !== 'result' || !record) return;
      if (typeof id === 'string') journal.update(scope, id, { status: record.status });
    });
  }, [journal, queryClient, scope]);
  const entries = useSyncExternalStore(
    journal ? journal.subscribe : noJournal,
    () => journal?.entries(scope) ?? NO_ENTRIES,
    () => NO_ENTRIES,
  );
  const remove = useCallback((id: string) => journal?.remove(scope, id), [journal, scope]);
  const clear = useCallback(() => journal?.clear(scope), [journal, scope]);
  return { entries, remove, clear };
}

/**
 * The journal entry started under `resumeKey` in this client's scope, or `undefined`: a submit flow
 * resumes with `useTaskResult(task, entry?.id)` after a reload.
 */
export function useJournalEntry(resumeKey: string): TaskJournalEntry | undefined {
  return useTaskJournal().entries.find((entry) => entry.key === resumeKey);
}
