import { describe, expect, it } from 'vitest';
import { TokenBucket } from './rate-limit.ts';

describe('TokenBucket', () => {
  it('allows a burst of its rate, then refills at that rate', () => {
    let now = 0;
    const bucket = new TokenBucket(10, () => now);
    for (let i = 0; i < 10; i++) expect(bucket.take()).toBe(true);
    expect(bucket.take()).toBe(false);
    now += 100;
    expect(bucket.take()).toBe(true);
    expect(bucket.take()).toBe(false);
    now += 5000;
    expect(bucket.take(10)).toBe(true);
    expect(bucket.take(1)).toBe(false);
    expect(bucket.take(11)).toBe(false);
  });

  it('knows when it is full again', () => {
    let now = 0;
    const bucket = new TokenBucket(2, () => now);
    expect(bucket.idle()).toBe(true);
    bucket.take();
    expect(bucket.idle()).toBe(false);
    now += 1000;
    expect(bucket.idle()).toBe(true);
  });
});
