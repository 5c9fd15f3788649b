/**
 * A token bucket: `perSecond` tokens a second, bursts up to `perSecond`. One per connection (its
 * incoming messages) and one per client address for the HTTP broadcast API.
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

/** Token buckets by key (e.g. client address), forgetting those that have refilled. */
export class KeyedBuckets {
  private readonly buckets = new Map<string, TokenBucket>();
  private sweptAt = performance.now();

  constructor(private readonly perSecond: number) {}

  take(key: string, count = 1): boolean {
    this.sweep();
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = new TokenBucket(this.perSecond);
      this.buckets.set(key, bucket);
    }
    return bucket.take(count);
  }

  private sweep(): void {
    const now = performance.now();
    if (now - this.sweptAt < 10_000) return;
    this.sweptAt = now;
    for (const [key, bucket] of this.buckets) if (bucket.idle()) this.buckets.delete(key);
  }
}
