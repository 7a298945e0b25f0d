/**
 * The share of one user (docs/protocol.md, "The reference service"): how many tasks a user may have
 * that have not ended (ACCEPTED or IN_PROGRESS, however they were started). The scheduler runs a
 * bounded number of tasks for everyone together; without a share per user, one user's long tasks
 * would fill its queue and every other user's task would wait behind them.
 */
import { MAX_RETRY_AFTER_SECONDS, retryAfterSeconds } from './retry-after-hint.js';
import { ServiceError } from './service-error.js';
import type { TaskRun } from './task-run.js';

/** The tasks of each user that have not ended, held to a fixed number per user. */
export class UserTaskLimit {
  private readonly unfinished = new Map<string, Set<TaskRun>>();

  constructor(private readonly tasksPerUser: number) {
    if (!(tasksPerUser >= 1)) throw new RangeError('tasksPerUser must be at least 1.');
  }

  /**
   * Throws 429 `TOO_MANY_TASKS`, with a `Retry-After` hint, when `userId` already has
   * `tasksPerUser` tasks that have not ended.
   */
  check(userId: string): void {
    const runs = this.unfinishedRuns(userId);
    if (runs.length < this.tasksPerUser) return;
    throw new ServiceError(
      429,
      'TOO_MANY_TASKS',
      `You have ${runs.length} tasks that have not ended; start another once one of them has.`,
      { 'retry-after': String(soonestEndHint(runs)) },
    );
  }

  /** Counts `run` against its user until it ends. */
  count(run: TaskRun): void {
    let runs = this.unfinished.get(run.userId);
    if (runs === undefined) {
      runs = new Set();
      this.unfinished.set(run.userId, runs);
    }
    runs.add(run);
    void run.settled.then(() => {
      runs.delete(run);
      if (runs.size === 0 && this.unfinished.get(run.userId) === runs) {
        this.unfinished.delete(run.userId);
      }
    });
  }

  /**
   * The user's tasks that have not ended. A task is read as ended the moment its status is
   * terminal, not a microtask later when `settled` has told the set, so that a user whose task has
   * just ended is never refused because of it.
   */
  private unfinishedRuns(userId: string): TaskRun[] {
    return [...(this.unfinished.get(userId) ?? [])].filter((run) => !run.isTerminal);
  }
}

/**
 * When a place is likely to free up: the soonest expected end among the user's running tasks, as a
 * `Retry-After` hint (rounded up, 1 to 5 seconds, like Get Result's). When every task of theirs still
 * waits for the scheduler, none is near its end, and the longest hint is given.
 */
function soonestEndHint(runs: readonly TaskRun[]): number {
  let soonest = Infinity;
  for (const run of runs) {
    if (run.status === 'IN_PROGRESS') {
      soonest = Math.min(soonest, run.currentProgress.estimatedSecondsLeft);
    }
  }
  return soonest === Infinity ? MAX_RETRY_AFTER_SECONDS : retryAfterSeconds(soonest);
}
