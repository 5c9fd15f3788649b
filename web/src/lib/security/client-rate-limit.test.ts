import { describe, expect, it } from 'vitest';
import { CLIENT_RATE_LIMIT_DEFAULTS, checkClientRateLimit, rateLimitKey } from './client-rate-limit.ts';
import { MemoryStorage } from './memory-storage.test-helper.ts';

const T0 = 1_800_000_000_000;

describe('checkClientRateLimit', () => {
  it('allows 5 attempts per 60 s by default, then refuses', () => {
    expect(CLIENT_RATE_LIMIT_DEFAULTS).toEqual({ maxAttempts: 5, windowMs: 60_000 });
    const storage = new MemoryStorage();
    for (let i = 0; i < 5; i++) expect(checkClientRateLimit('report', { storage, now: T0 + i })).toBe(true);
    expect(checkClientRateLimit('report', { storage, now: T0 + 10 })).toBe(false);
  });

  it('allows again once the oldest attempt has left the window', () => {
    const storage = new MemoryStorage();
    for (let i = 0; i < 5; i++) checkClientRateLimit('report', { storage, now: T0 + i * 1000 });
    expect(checkClientRateLimit('report', { storage, now: T0 + 59_999 })).toBe(false);
    expect(checkClientRateLimit('report', { storage, now: T0 + 60_000 })).toBe(true);
  });

  it('keeps a list of timestamps under a key per action, and refused attempts are not recorded', () => {
    const storage = new MemoryStorage();
    checkClientRateLimit('submit_report', { storage, now: T0, maxAttempts: 1 });
    checkClientRateLimit('submit_report', { storage, now: T0 + 1, maxAttempts: 1 });
    expect(rateLimitKey('submit_report')).toBe('rate_limit_submit_report');
    expect(JSON.parse(storage.getItem('rate_limit_submit_report') ?? '')).toEqual([T0]);
    expect(checkClientRateLimit('other_action', { storage, now: T0 + 2, maxAttempts: 1 })).toBe(true);
  });

  it('honours custom limits and windows', () => {
    const storage = new MemoryStorage();
    const options = { storage, maxAttempts: 3, windowMs: 15 * 60_000 };
    for (let i = 0; i < 3; i++)
      expect(checkClientRateLimit('r', { ...options, now: T0 + i * 60_000 })).toBe(true);
    expect(checkClientRateLimit('r', { ...options, now: T0 + 14 * 60_000 })).toBe(false);
    expect(checkClientRateLimit('r', { ...options, now: T0 + 15 * 60_000 })).toBe(true);
  });

  it('ignores a corrupt log, future timestamps, and allows without storage', () => {
    const storage = new MemoryStorage();
    storage.setItem('rate_limit_r', '{"not":"a list"}');
    expect(checkClientRateLimit('r', { storage, now: T0, maxAttempts: 1 })).toBe(true);
    storage.setItem('rate_limit_r', JSON.stringify([T0 + 1e9, 'x', null]));
    expect(checkClientRateLimit('r', { storage, now: T0, maxAttempts: 1 })).toBe(true);
    expect(checkClientRateLimit('r', { storage: null, now: T0, maxAttempts: 0 })).toBe(true);
  });
});
