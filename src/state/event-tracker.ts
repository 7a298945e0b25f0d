/**
 * Reports each of a task's custom events once, although every poll of Get Result returns the whole
 * list again.
 */
import type { EventReference } from '../protocol/records.js';

/** Remembers which event ids were reported. */
export interface EventTracker {
  /** The events of `events` not seen before, in order; they are marked as seen. */
  takeNew(events: readonly EventReference[]): EventReference[];
}

/** Creates an {@link EventTracker} with nothing seen yet. */
export function createEventTracker(): EventTracker {
  const seen = new Set<string>();
  return {
    takeNew(events) {
      const fresh: EventReference[] = [];
      for (const event of events) {
        if (seen.has(event.id)) continue;
        seen.add(event.id);
        fresh.push(event);
      }
      return fresh;
    },
  };
}

/**
 * The events of each record read that were not reported before, for a watcher of one task at a
 * time: it starts over when the record is another task's.
 */
export function createRecordEventTracker(): (record: {
  id: string;
  events: readonly EventReference[];
}) => EventReference[] {
  let id: string | undefined;
  let tracker = createEventTracker();
  return (record) => {
    if (record.id !== id) [id, tracker] = [record.id, createEventTracker()];
    return tracker.takeNew(record.events);
  };
}
