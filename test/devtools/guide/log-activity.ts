// The guide's example of hooking logging and metrics on `client.subscribe`
// The imports name the sources; the guide shows them as the package's entries.
// (docs/devtools.md; docs/protocol.md, "The activity feed").
import type { TaskClient, TaskwireActivity } from '../../../src/client/index.js';

/** Where the example sends its figures: any metrics library has something like it. */
export interface Metrics {
  timing(name: string, ms: number, tags: Record<string, string>): void;
  count(name: string, tags: Record<string, string>): void;
}

/** Logs every request, retry and error of `client`, and times its requests. Returns the stop. */
export function watchClient(
  client: TaskClient,
  metrics: Metrics,
  log: (line: string) => void = console.info,
): () => void {
  return client.subscribe((activity: TaskwireActivity) => {
    switch (activity.type) {
      case 'request':
        metrics.timing('taskwire.request', activity.durationMs, {
          operation: activity.operation,
          status: String(activity.status ?? activity.error),
        });
        log(`${activity.method} ${activity.path} → ${activity.status ?? activity.error}`);
        break;
      case 'retry':
        metrics.count('taskwire.retry', { reason: activity.reason });
        break;
      case 'error':
        metrics.count('taskwire.error', { code: activity.code, reason: activity.reason ?? '' });
        log(`${activity.task} failed: ${activity.code} ${activity.message}`);
        break;
      case 'answer':
        if ('usage' in activity.answer && activity.answer.usage !== undefined) {
          metrics.count('taskwire.charged', { task: activity.task });
        }
        break;
      case 'event':
        break;
      default:
        activity satisfies never;
    }
  });
}
