/**
 * The tasks of every user, with retention (CONTRACT 1.2 `RESULT_EXPIRED`): a finished task is kept
 * for the retention time, then dropped, leaving only a marker so that its id answers 410 rather than
 * 404 for a day more. Expiry is computed from the service's clock when a request comes, so the store
 * needs no timer.
 */
import type { TaskRun } from './task-run.js';

/** How long an expired task's id still answers 410 before it answers 404 like an unknown id. */
export const EXPIRED_MARKER_MS = 24 * 60 * 60 * 1000;

/** What a lookup found: the task, the marker of an expired one, or nothing. */
export type TaskLookup =
  { kind: 'found'; run: TaskRun } | { kind: 'expired' } | { kind: 'missing' };

interface ExpiredMarker {
  taskName: string;
  forgetAt: number;
}

/** Every user's tasks, by user and id. */
export class TaskStore {
  private readonly users = new Map<string, Map<string, TaskRun | ExpiredMarker>>();
  // Maps keep insertion order, which is finishing (and expiry) order: sweeping stops at the first
  // entry still alive, so a request costs only what has actually expired.
  private readonly finished = new Map<TaskRun, true>();
  private readonly expired = new Map<ExpiredMarker, { userId: string; id: string }>();

  constructor(
    private readonly retentionMs: number,
    private readonly now: () => number,
  ) {}

  /** Adds a new task. */
  add(run: TaskRun): void {
    let tasks = this.users.get(run.userId);
    if (tasks === undefined) {
      tasks = new Map();
      this.users.set(run.userId, tasks);
    }
    tasks.set(run.id, run);
    void run.settled.then(() => this.finished.set(run, true));
  }

  /** Every task still held, for closing. */
  *runs(): Iterable<TaskRun> {
    for (const tasks of this.users.values()) {
      for (const entry of tasks.values()) if (!('forgetAt' in entry)) yield entry;
    }
  }

  /** The task with this id of this user and task name (another user's id is simply missing). */
  get(userId: string, taskName: string, id: string): TaskLookup {
    this.sweep();
    const entry = this.users.get(userId)?.get(id);
    if (entry === undefined || entry.taskName !== taskName) return { kind: 'missing' };
    if ('forgetAt' in entry) return { kind: 'expired' };
    return { kind: 'found', run: entry };
  }

  private sweep(): void {
    const now = this.now();
    for (const run of this.finished.keys()) {
      if (run.finishedAt === undefined || now - run.finishedAt <= this.retentionMs) break;
      this.finished.delete(run);
      const marker: ExpiredMarker = { taskName: run.taskName, forgetAt: now + EXPIRED_MARKER_MS };
      this.users.get(run.userId)?.set(run.id, marker);
      this.expired.set(marker, { userId: run.userId, id: run.id });
    }
    for (const [marker, { userId, id }] of this.expired) {
      if (marker.forgetAt > now) break;
      this.expired.delete(marker);
      const tasks = this.users.get(userId);
      tasks?.delete(id);
      if (tasks?.size === 0) this.users.delete(userId);
    }
  }
}
