/**
 * A token bucket per user (docs/protocol.md, "Error bodies": `RATE_LIMITED`): `burst` requests at
 * once, refilled at `perSecond`. It keeps no timer: buckets are refilled from the clock when a
 * request arrives.
 */

/** The rate limit of each user. */
export interface RateLimit {
  /** Requests per second a user may sustain. */
  perSecond: number;
  /** Requests a user may send at once after a quiet spell. */
  burst: number;
}

/** Per-user token buckets over an injectable clock. */
export class TokenBucketRateLimiter {
  private readonly buckets = new Map<string, { tokens: number; updatedAt: number }>();

  constructor(
    private readonly limit: RateLimit,
    private readonly now: () => number,
  ) {
    if (!(limit.perSecond > 0) || !(limit.burst >= 1)) {
      throw new RangeError('rateLimit needs perSecond > 0 and burst >= 1.');
    }
  }

  /**
   * Takes one token of `userId`'s bucket; returns `undefined` when there was one, else the whole
   * seconds (at least 1) after which one will be there.
   */
  take(userId: string): number | undefined {
    const now = this.now();
    const bucket = this.buckets.get(userId) ?? { tokens: this.limit.burst, updatedAt: now };
    const elapsedSeconds = Math.max(0, now - bucket.updatedAt) / 1000;
    bucket.tokens = Math.min(
      this.limit.burst,
      bucket.tokens + elapsedSeconds * this.limit.perSecond,
    );
    bucket.updatedAt = now;
    this.buckets.set(userId, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return undefined;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.limit.perSecond));
  }
}
