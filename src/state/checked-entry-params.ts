/**
 * The params a journal keeps with its entries (`keepParams`), checked before they reach a page
 * (docs/protocol.md, "The hooks", on the journal): storage is untrusted, and params stored by an
 * older version of the app may no longer fit its form. In a module of its own, so that a page
 * that never reads the journal's entries (the quick start) does not load it.
 */
import { checkedPost } from '../client/call-checks.js';
import type { TaskSchemas } from '../protocol/task-schemas.js';
import type { JournalSnapshot } from './journal-session.js';
import type { TaskJournalEntry } from './task-journal.js';

/** Whether `params` pass the client's own checks for `task` (its params schema in `tasks`). */
function paramsPass(tasks: TaskSchemas | undefined, task: string, params: unknown): boolean {
  try {
    checkedPost(tasks, task, params);
    return true;
  } catch {
    return false;
  }
}

/**
 * `snapshot` with the params its entries keep (`keepParams`) checked as the client checks params
 * before sending, against the task's params schema in `tasks` (any JSON object without one):
 * params that fail, stored by an older version of the app or spoiled, are left out and the entry
 * kept. The same object when every entry's params pass.
 */
export function withCheckedParams(
  snapshot: JournalSnapshot,
  tasks: TaskSchemas | undefined,
): JournalSnapshot {
  const failing = (entry: TaskJournalEntry) =>
    entry.params !== undefined && !paramsPass(tasks, entry.task, entry.params);
  if (!snapshot.entries.some(failing)) return snapshot;
  return {
    ...snapshot,
    entries: snapshot.entries.map((entry) => {
      if (!failing(entry)) return entry;
      const kept = { ...entry };
      delete kept.params;
      return kept;
    }),
  };
}
