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
