/**
 * Every timer the service starts goes through one registry, so that `close()` can clear them all
 * and leave the process (or the browser tab) with no handle from the service.
 */

type TimerHandle = ReturnType<typeof setTimeout>;

/** Timers that can all be cleared at once. */
export class TimerRegistry {
  private readonly timeouts = new Set<TimerHandle>();
  private readonly intervals = new Set<TimerHandle>();

  /** How many timers are pending. */
  get size(): number {
    return this.timeouts.size + this.intervals.size;
  }

  /** Like `setTimeout`, but cleared by {@link TimerRegistry.clearAll}. */
  setTimeout(callback: () => void, ms: number): TimerHandle {
    const handle = setTimeout(() => {
      this.timeouts.delete(handle);
      callback();
    }, ms);
    this.timeouts.add(handle);
    return handle;
  }

  /** Like `setInterval`, but cleared by {@link TimerRegistry.clearAll}. */
  setInterval(callback: () => void, ms: number): TimerHandle {
    const handle = setInterval(callback, ms);
    this.intervals.add(handle);
    return handle;
  }

  /** Clears a timer made by this registry. */
  clear(handle: TimerHandle): void {
    if (this.timeouts.delete(handle)) clearTimeout(handle);
    if (this.intervals.delete(handle)) clearInterval(handle);
  }

  /** Clears every pending timer. */
  clearAll(): void {
    for (const handle of this.timeouts) clearTimeout(handle);
    for (const handle of this.intervals) clearInterval(handle);
    this.timeouts.clear();
    this.intervals.clear();
  }
}
