/**
 * Remembers which task each `Idempotency-Key` created (CONTRACT 1.3), per user and task, for a time
 * to live. Lookup and insertion happen in one synchronous step of the handler (after the body is
 * read and before any other await), so fifty copies of one request arriving at once still find the
 * first one's entry and create one task.
 */

/** What a key was first used for. */
export interface IdempotencyEntry {
  /** The canonical JSON of the first body's params and notification. */
  fingerprint: string;
  /** The task the first request created. */
  taskId: string;
  /** When the entry is forgotten, on the service's clock. */
  expiresAt: number;
}

/** Idempotency keys per user and task, expiring after a time to live. */
export class IdempotencyStore {
  private readonly entries = new Map<string, IdempotencyEntry>();

  constructor(
    private readonly timeToLiveMs: number,
    private readonly now: () => number,
  ) {}

  private static keyOf(userId: string, taskName: string, key: string): string {
    // JSON keeps the three parts apart whatever characters they hold.
    return JSON.stringify([userId, taskName, key]);
  }

  /** Forgets expired entries; insertion order is expiry order, since the time to live is fixed. */
  private sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt > now) break;
      this.entries.delete(key);
    }
  }

  /** The live entry for this key, user and task, if any. */
  get(userId: string, taskName: string, key: string): IdempotencyEntry | undefined {
    this.sweep();
    return this.entries.get(IdempotencyStore.keyOf(userId, taskName, key));
  }

  /** Records that this key, user and task created `taskId` from a body with `fingerprint`. */
  set(userId: string, taskName: string, key: string, fingerprint: string, taskId: string): void {
    this.entries.set(IdempotencyStore.keyOf(userId, taskName, key), {
      fingerprint,
      taskId,
      expiresAt: this.now() + this.timeToLiveMs,
    });
  }
}
