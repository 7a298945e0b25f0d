/**
 * The part of the activity feed (docs/protocol.md, "The activity feed") that every client carries:
 * its listeners and a `report` that does nothing while there are none. What is reported is raw (a
 * tuple of the values at hand); the code that turns it into a `TaskwireActivity` and calls the
 * listeners loads on the first report while someone listens (`activity.ts`, see
 * `load-on-first-use.ts`), so an app that never listens never downloads it, and a request pays one
 * size check.
 */
import { loadActivity } from './load-on-first-use.js';
import { noop } from './request.js';
import type { ActivityFeed, TaskwireActivityListener } from './activity-types.js';

/** Makes the activity feed of one client. */
export function createActivityFeed(): ActivityFeed {
  const listeners = new Set<TaskwireActivityListener>();
  let calls = 0;
  return {
    report: (...raw) => {
      // One loaded module, so deliveries keep the order of the reports. A failed load (a chunk
      // that could not be fetched) loses the activity, never a call.
      if (listeners.size > 0)
        loadActivity().then((activity) => activity.deliver(listeners, raw), noop);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    begin: (operation, task) => ({ call: ++calls, operation, task }),
  };
}
