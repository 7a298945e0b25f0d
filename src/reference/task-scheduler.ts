/**
 * Runs at most a fixed number of tasks at once; the others wait, first come first served, in the
 * ACCEPTED state. This bounds the work one service does, and is what makes ACCEPTED a real state.
 */
import type { TaskRun } from './task-run.js';

/** A first-in, first-out queue of tasks with a limit on how many run at once. */
export class TaskScheduler {
  private running = 0;
  private readonly waiting: TaskRun[] = [];

  constructor(private readonly concurrentTasks: number) {
    if (!(concurrentTasks >= 1)) throw new RangeError('concurrentTasks must be at least 1.');
  }

  /** Starts `run` now when a slot is free, else when one frees up. */
  enqueue(run: TaskRun): void {
    this.waiting.push(run);
    this.startWaiting();
  }

  private startWaiting(): void {
    while (this.running < this.concurrentTasks) {
      const run = this.waiting.shift();
      if (run === undefined) return;
      // A waiting task that ended already (the service closed) takes no slot.
      if (run.status !== 'ACCEPTED') continue;
      this.running += 1;
      run.start();
      void run.settled.then(() => {
        this.running -= 1;
        this.startWaiting();
      });
    }
  }
}
