/**
 * Remembers which task each `Idempotency-Key` created (docs/protocol.md, "Idempotency"), per user
 * and task, for a time to live and up to a number of keys. Each entry holds a fixed-size digest of
 * the first body, never the body itself, so the store's memory is bounded by its number of keys
 * whatever the bodies weigh. Lookup and insertion happen in one synchronous step of the handler
 * (after the digest is computed and before any other await), so fifty copies of one request arriving
 * at once still find the first one's entry and create one task.
 */

/** What a key was first used for. */
export interface IdempotencyEntry {
  /** The SHA-256 digest, in hex, of the first body's canonical params and notification. */
  fingerprint: string;
  /** The task the first request created. */
  taskId: string;
  /** When the entry is forgotten, on the service's clock. */
  expiresAt: number;
}

/** Idempotency keys per user and task, expiring after a time to live, the oldest dropped past a cap. */
export class IdempotencyStore {
  // Insertion order is both age and expiry order, since the time to live is fixed: the oldest
  // entry is always the first one, for the sweep and for the cap alike.
  private readonly entries = new Map<string, IdempotencyEntry>();

  constructor(
    private readonly timeToLiveMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number,
  ) {
    if (!(maxEntries >= 1)) throw new RangeError('idempotencyKeys must be at least 1.');
  }

  private static keyOf(userId: string, taskName: string, key: string): string {
    // JSON keeps the three parts apart whatever characters they hold.
    return JSON.stringify([userId, taskName, key]);
  }

  /** How many keys are remembered. */
  get size(): number {
    return this.entries.size;
  }

  /** Forgets expired entries, which are the first ones. */
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

  /**
   * Records that this key, user and task created `taskId` from a body with `fingerprint`; past the
   * cap, the oldest key is forgotten, and a repeat of it creates a new task.
   */
  set(userId: string, taskName: string, key: string, fingerprint: string, taskId: string): void {
    const storeKey = IdempotencyStore.keyOf(userId, taskName, key);
    // Deleted first, so that a key set again moves to the end, where its expiry belongs.
    this.entries.delete(storeKey);
    this.entries.set(storeKey, { fingerprint, taskId, expiresAt: this.now() + this.timeToLiveMs });
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) break;
      this.entries.delete(oldest);
    }
  }
}
