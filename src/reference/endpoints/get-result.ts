/**
 * Get Result (docs/protocol.md, "Get Result"): the record of one of the user's tasks, with a
 * `Retry-After` hint while it runs.
 */
import { successResponse } from '../json-response.js';
import type { Route } from '../../protocol/match-route.js';
import { retryAfterSeconds } from '../retry-after-hint.js';
import type { ServiceContext } from '../service-context.js';
import { ServiceError } from '../service-error.js';

/**
 * Answers Get Result for `route`'s task name and id: 200 with the record, 404 when the task or id is
 * unknown to this user, 410 once the record was dropped (past its retention, or to keep the store
 * within `limits.tasks`).
 */
export function answerGetResult(context: ServiceContext, route: Route, userId: string): Response {
  context.findTask(route.taskName);
  const lookup = context.store.get(userId, route.taskName, route.taskId);
  switch (lookup.kind) {
    case 'missing':
      // The same answer whether the id never existed or belongs to someone else.
      throw new ServiceError(404, 'RESULT_NOT_FOUND', 'No result with that id for this task.');
    case 'expired':
      throw new ServiceError(
        410,
        'RESULT_EXPIRED',
        'The result was dropped: it was kept past its retention or the store was full.',
      );
    case 'found': {
      const { run } = lookup;
      const headers: Record<string, string> = {};
      if (!run.isTerminal) {
        headers['retry-after'] = String(
          retryAfterSeconds(run.currentProgress.estimatedSecondsLeft),
        );
      }
      return successResponse(200, run.record(), headers);
    }
    default:
      return lookup satisfies never;
  }
}
