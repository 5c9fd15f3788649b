/**
 * A token bucket: `perSecond` tokens a second, bursts up to `perSecond`. One per connection (its
 * incoming messages; a connection lives in one process). The HTTP broadcast API's limit per client
 * address is counted in the database instead, shared by every process (RealtimeDb.hitBroadcastLimit).
 */
export class TokenBucket {
  private tokens: number;
  private updatedAt: number;

  constructor(
    private readonly perSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = perSecond;
    this.updatedAt = now();
  }

  private refill(): void {
    const now = this.now();
    this.tokens = Math.min(this.perSecond, this.tokens + ((now - this.updatedAt) / 1000) * this.perSecond);
    this.updatedAt = now;
  }

  /** Takes `count` tokens if there are that many. */
  take(count = 1): boolean {
    this.refill();
    if (this.tokens < count) return false;
    this.tokens -= count;
    return true;
  }

  /** Whether the bucket is full again (nothing taken lately), so it can be forgotten. */
  idle(): boolean {
    this.refill();
    return this.tokens >= this.perSecond;
  }
}
