/**
 * One journal as one user's page sees it: the entries and starts of one client scope, behind one
 * subscription, with the bookkeeping the hooks used to do themselves (docs/protocol.md, "The
 * hooks"): entry statuses follow the records read, expired entries leave the storage, and a task
 * seen running that ends is reported once to whoever watches completions. Framework-free: the
 * provider owns one per journal and scope, and the hooks only adapt it (`useSyncExternalStore`).
 *
 * Nothing is read until someone subscribes or asks for a snapshot, so making a session during a
 * render, the server's included, touches no storage; the server snapshot is {@link EMPTY_JOURNAL}.
 */
import { isTerminalStatus, type TaskStatus } from '../protocol/records.js';
import type { TaskJournal, TaskJournalEntry, TaskJournalStart } from './task-journal.js';

/** What a session shows: the scope's entries and its starts whose outcome is not known yet. */
export interface JournalSnapshot {
  /** The scope's entries, newest first. */
  readonly entries: readonly TaskJournalEntry[];
  /** The scope's starts whose answer never came, newest first. */
  readonly starts: readonly TaskJournalStart[];
}

/** The snapshot of no journal, and of every journal on the server and in the first client render. */
export const EMPTY_JOURNAL: JournalSnapshot = { entries: [], starts: [] };

/** One scope of one journal, as the hooks of a page read it. */
export interface JournalSession {
  /** The journal. */
  readonly journal: TaskJournal;
  /** The client scope whose entries it shows. */
  readonly scope: string;
  /** Listens for changes of the snapshot; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
  /** The entries and starts now; the same object until they change. */
  getSnapshot(): JournalSnapshot;
  /** Takes a record's status read for task `id` into its entry (a terminal status is final). */
  noteStatus(id: string, status: TaskStatus): void;
  /** Removes the entry of task `id` (the task goes on at the service). */
  remove(id: string): void;
  /** Forgets the start of `key`. */
  forgetStart(key: string): void;
  /** Removes every entry and start of the scope. */
  clear(): void;
  /**
   * Calls `onEnded` once for each task of the scope seen running while it watches that then ends,
   * COMPLETED or FAILED; returns the stop.
   */
  watchCompletions(onEnded: (entry: TaskJournalEntry) => void): () => void;
}

// One session per journal and scope for the page, so that several providers (or a provider
// mounted again) over one journal see one set of tasks seen running and report each end once.
const sessions = new WeakMap<TaskJournal, Map<string, JournalSession>>();

/** The {@link JournalSession} of `journal` for `scope`: made on first use, then the same one. */
export function journalSession(journal: TaskJournal, scope: string): JournalSession {
  let byScope = sessions.get(journal);
  if (!byScope) sessions.set(journal, (byScope = new Map()));
  let session = byScope.get(scope);
  if (!session) byScope.set(scope, (session = createJournalSession(journal, scope)));
  return session;
}

/** Creates a {@link JournalSession} of `journal` for `scope` (see {@link journalSession}). */
export function createJournalSession(journal: TaskJournal, scope: string): JournalSession {
  const listeners = new Set<() => void>();
  // Each watcher once, however many hooks watch with it: one notice per task, not one per hook.
  const completionWatchers = new Map<(entry: TaskJournalEntry) => void, number>();
  let snapshot: JournalSnapshot | undefined;
  let stopJournal: (() => void) | undefined;
  // Tasks seen running and tasks already reported, for the life of the session.
  const running = new Set<string>();
  const noticed = new Set<string>();

  const read = (): JournalSnapshot => {
    const entries = journal.entries(scope);
    const starts = journal.starts(scope);
    if (snapshot && snapshot.entries === entries && snapshot.starts === starts) return snapshot;
    snapshot = { entries, starts };
    return snapshot;
  };

  const track = (entries: readonly TaskJournalEntry[]) => {
    if (completionWatchers.size === 0) return;
    for (const entry of entries) {
      if (!isTerminalStatus(entry.status)) {
        running.add(entry.id);
        continue;
      }
      // Only a task seen running here ends here; one that had ended before is no news.
      if (!running.delete(entry.id) || noticed.has(entry.id)) continue;
      noticed.add(entry.id);
      for (const watcher of [...completionWatchers.keys()]) watcher(entry);
    }
  };

  const onChange = () => {
    const next = read();
    track(next.entries);
    for (const listener of [...listeners]) listener();
  };

  const start = () => {
    if (stopJournal) return;
    stopJournal = journal.subscribe(onChange);
    // The storage itself forgets what is past its age, every user's (in an effect, never during a
    // render): one user's old bodies must not wait for that user to sign in again.
    journal.prune();
  };
  const stopIfUnused = () => {
    if (listeners.size > 0 || completionWatchers.size > 0) return;
    stopJournal?.();
    stopJournal = undefined;
  };

  return {
    journal,
    scope,
    subscribe(listener) {
      listeners.add(listener);
      start();
      return () => {
        listeners.delete(listener);
        stopIfUnused();
      };
    },
    getSnapshot: read,
    noteStatus(id, status) {
      journal.update(scope, id, { status });
    },
    remove: (id) => journal.remove(scope, id),
    forgetStart: (key) => journal.forgetStart(scope, key),
    clear: () => journal.clear(scope),
    watchCompletions(onEnded) {
      completionWatchers.set(onEnded, (completionWatchers.get(onEnded) ?? 0) + 1);
      start();
      track(read().entries);
      return () => {
        const count = (completionWatchers.get(onEnded) ?? 1) - 1;
        if (count > 0) completionWatchers.set(onEnded, count);
        else completionWatchers.delete(onEnded);
        stopIfUnused();
      };
    },
  };
}
