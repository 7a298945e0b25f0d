/**
 * A record watch the test drives (a `WatchTaskRecord`): it counts who watches, and hands records
 * and errors over by hand through `listener`. With `cached`, it reports that record before it
 * returns, as a watch over a cache that already holds the final record does.
 */
import type { TaskRecord } from '../../src/protocol/records.js';
import type { TaskRecordListener } from '../../src/state/watch-task-record.js';

export function manualWatch(cached?: TaskRecord) {
  const watch = {
    listener: undefined as TaskRecordListener<unknown> | undefined,
    watching: 0,
    start(_taskId: string, listener: TaskRecordListener<unknown>) {
      watch.listener = listener;
      watch.watching += 1;
      if (cached) listener.onRecord(cached);
      return () => {
        watch.watching -= 1;
      };
    },
  };
  return watch;
}
