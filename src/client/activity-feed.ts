/**
 * The part of the activity feed (docs/protocol.md, "The activity feed") that every client carries:
 * its listeners and a `report` that does nothing while there are none, so a request pays one size
 * check. What is reported is raw (a tuple of the values at hand); `activity.ts` turns it into a
 * `TaskwireActivity` for the listeners.
 */
import { deliver } from './activity.js';
import type { ActivityFeed, TaskwireActivityListener } from './activity-types.js';

/** Makes the activity feed of one client. */
export function createActivityFeed(): ActivityFeed {
  const listeners = new Set<TaskwireActivityListener>();
  let calls = 0;
  return {
    report: (...raw) => {
      if (listeners.size > 0) deliver(listeners, raw);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    begin: (operation, task) => ({ call: ++calls, operation, task }),
  };
}
