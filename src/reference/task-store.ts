/**
 * The tasks of every user, with retention and a cap (docs/protocol.md, "Get Result"): a finished
 * task is kept for the retention time, then dropped, leaving only a small marker so that its id
 * answers 410 `RESULT_EXPIRED` rather than 404 for a day more. Past `maxRecords` records, the tasks
 * that finished first are dropped the same way before their time; a task that has not finished is
 * never dropped, since its user is still waiting for it. The markers are capped at the same number,
 * the oldest forgotten first. Expiry is computed from the service's clock when a request comes, so the
 * store needs no timer.
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
  // entry still alive, so a request costs only what has actually expired, and the oldest finished
  // task, the first to go past the cap, is always the first entry.
  private readonly finished = new Map<TaskRun, true>();
  private readonly expired = new Map<ExpiredMarker, { userId: string; id: string }>();
  private recordCount = 0;

  constructor(
    private readonly retentionMs: number,
    private readonly maxRecords: number,
    private readonly now: () => number,
  ) {
    if (!(maxRecords >= 1)) throw new RangeError('tasks must be at least 1.');
  }

  /** How many task records are held (markers of dropped ones not counted). */
  get size(): number {
    return this.recordCount;
  }

  /** Adds a new task, dropping the oldest finished ones past the cap. */
  add(run: TaskRun): void {
    let tasks = this.users.get(run.userId);
    if (tasks === undefined) {
      tasks = new Map();
      this.users.set(run.userId, tasks);
    }
    tasks.set(run.id, run);
    this.recordCount += 1;
    void run.settled.then(() => {
      this.finished.set(run, true);
      this.dropOverCap();
    });
    this.dropOverCap();
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
      this.drop(run);
    }
    for (const marker of this.expired.keys()) {
      if (marker.forgetAt > now) break;
      this.forget(marker);
    }
  }

  /** Drops the oldest finished tasks while there are more records than the cap. */
  private dropOverCap(): void {
    for (const run of this.finished.keys()) {
      if (this.recordCount <= this.maxRecords) return;
      this.drop(run);
    }
  }

  /** Replaces a finished task's record with a marker, so its id answers 410. */
  private drop(run: TaskRun): void {
    this.finished.delete(run);
    this.recordCount -= 1;
    const marker: ExpiredMarker = {
      taskName: run.taskName,
      forgetAt: this.now() + EXPIRED_MARKER_MS,
    };
    this.users.get(run.userId)?.set(run.id, marker);
    this.expired.set(marker, { userId: run.userId, id: run.id });
    for (const oldest of this.expired.keys()) {
      if (this.expired.size <= this.maxRecords) break;
      this.forget(oldest);
    }
  }

  /** Forgets a marker, so its id answers 404 like one that never existed. */
  private forget(marker: ExpiredMarker): void {
    const place = this.expired.get(marker);
    this.expired.delete(marker);
    if (place === undefined) return;
    const tasks = this.users.get(place.userId);
    tasks?.delete(place.id);
    if (tasks?.size === 0) this.users.delete(place.userId);
  }
}
