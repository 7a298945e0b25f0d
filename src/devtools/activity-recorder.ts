/**
 * What the devtools keep of a client's activity (docs/protocol.md, "The activity feed"): every
 * activity with the time it arrived, from the moment the devtools mount, so nothing is lost while
 * the panel's code loads. Framework-free; the panel reads it with `useSyncExternalStore`.
 */
import type { TaskClient, TaskwireActivity } from '../client/index.js';

/** One activity as recorded: the activity and when it was delivered (`Date.now()`). */
export interface RecordedActivity {
  /** When the activity was delivered, in milliseconds since the epoch. */
  at: number;
  /** The activity itself. */
  activity: TaskwireActivity;
}

/** The record of a client's activity. */
export interface ActivityRecorder {
  /**
   * Forgets what was recorded and records `client`'s activity from now on, until the returned
   * function is called.
   */
  record(client: Pick<TaskClient, 'subscribe'>): () => void;
  /** Everything recorded so far, oldest first; a new array after each change. */
  getSnapshot(): readonly RecordedActivity[];
  /** Calls `onChange` after each change; returns the function that stops it. */
  subscribe(onChange: () => void): () => void;
  /** Forgets everything recorded so far. */
  clear(): void;
}

/** The most activities kept: past it the oldest are dropped, so a long session stays light. */
export const MAX_RECORDED_ACTIVITIES = 5000;

/** Makes an empty recorder. `limit` defaults to {@link MAX_RECORDED_ACTIVITIES}. */
export function createActivityRecorder(limit = MAX_RECORDED_ACTIVITIES): ActivityRecorder {
  const entries: RecordedActivity[] = [];
  // A copy made once per change that is read, so a fast stream costs no copy per event.
  let snapshot: readonly RecordedActivity[] | undefined;
  const listeners = new Set<() => void>();
  const changed = (): void => {
    snapshot = undefined;
    for (const listener of listeners) listener();
  };
  const clear = (): void => {
    entries.length = 0;
    changed();
  };
  return {
    record(client) {
      clear();
      return client.subscribe((activity) => {
        entries.push({ at: Date.now(), activity });
        if (entries.length > limit) entries.splice(0, entries.length - limit);
        changed();
      });
    },
    getSnapshot: () => (snapshot ??= entries.slice()),
    subscribe(onChange) {
      listeners.add(onChange);
      return () => void listeners.delete(onChange);
    },
    clear,
  };
}
