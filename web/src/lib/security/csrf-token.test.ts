import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CSRF_ROTATE_MS,
  CSRF_STORAGE_KEY,
  CSRF_VALID_MS,
  csrfTokenPrefix,
  generateCsrfToken,
  getCsrfToken,
  refreshCsrfToken,
  regenerateCsrfToken,
  startCsrfTokenRotation,
} from './csrf-token.ts';
import { MemoryStorage } from './memory-storage.test-helper.ts';
import { buildSecurityEventArgs } from './security-events.ts';

const T0 = Date.parse('2026-11-21T12:00:00Z');

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('CSRF token', () => {
  it('is 64 random hex characters, different each time', () => {
    const a = generateCsrfToken();
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(generateCsrfToken()).not.toBe(a);
  });

  it('is kept in the storage given and read back while valid', () => {
    const storage = new MemoryStorage();
    const token = regenerateCsrfToken(storage, T0);
    expect(JSON.parse(storage.getItem(CSRF_STORAGE_KEY) ?? '')).toEqual({ token, createdAt: T0 });
    expect(getCsrfToken(storage, T0)).toBe(token);
    expect(getCsrfToken(storage, T0 + CSRF_VALID_MS - 1)).toBe(token);
  });

  it('is valid for one hour only, and never when made "in the future"', () => {
    const storage = new MemoryStorage();
    regenerateCsrfToken(storage, T0);
    expect(CSRF_VALID_MS).toBe(3_600_000);
    expect(getCsrfToken(storage, T0 + CSRF_VALID_MS)).toBeNull();
    expect(getCsrfToken(storage, T0 - 1)).toBeNull();
  });

  it('is missing when removed, malformed or without storage', () => {
    const storage = new MemoryStorage();
    expect(getCsrfToken(storage, T0)).toBeNull();
    storage.setItem(CSRF_STORAGE_KEY, 'not json');
    expect(getCsrfToken(storage, T0)).toBeNull();
    storage.setItem(CSRF_STORAGE_KEY, JSON.stringify({ token: 'short', createdAt: T0 }));
    expect(getCsrfToken(storage, T0)).toBeNull();
    expect(getCsrfToken(null, T0)).toBeNull();
  });

  it('is kept for 30 minutes, then regenerated', () => {
    const storage = new MemoryStorage();
    expect(CSRF_ROTATE_MS).toBe(1_800_000);
    const first = refreshCsrfToken(storage, T0);
    expect(refreshCsrfToken(storage, T0 + CSRF_ROTATE_MS - 1)).toBe(first);
    const second = refreshCsrfToken(storage, T0 + CSRF_ROTATE_MS);
    expect(second).not.toBe(first);
    expect(getCsrfToken(storage, T0 + CSRF_ROTATE_MS)).toBe(second);
  });

  it('shows only its first 8 characters in logs', () => {
    expect(csrfTokenPrefix('0123456789abcdef')).toBe('01234567');
    expect(csrfTokenPrefix(null)).toBeNull();
  });

  it('rotates every 30 minutes once started, and security events carry its prefix', () => {
    vi.useFakeTimers({ now: T0 });
    const storage = new MemoryStorage();
    const listeners = new EventTarget();
    vi.stubGlobal('window', {
      sessionStorage: storage,
      setInterval: globalThis.setInterval,
      clearInterval: globalThis.clearInterval,
    });
    vi.stubGlobal('document', Object.assign(listeners, { visibilityState: 'visible' }));
    const stop = startCsrfTokenRotation();
    const first = getCsrfToken(storage);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    const context = { userAgent: 'UA', url: 'https://x.example/', now: new Date(T0), user: null };
    expect(buildSecurityEventArgs({ type: 't', action: 'a' }, context).additional_data).toMatchObject({
      csrf_token_prefix: first?.slice(0, 8),
    });

    vi.advanceTimersByTime(CSRF_ROTATE_MS);
    const second = getCsrfToken(storage);
    expect(second).not.toBe(first);

    stop();
    vi.advanceTimersByTime(CSRF_ROTATE_MS);
    expect(getCsrfToken(storage, Date.now() - 1)).toBe(second);
    expect(buildSecurityEventArgs({ type: 't', action: 'a' }, context).additional_data).not.toHaveProperty(
      'csrf_token_prefix',
    );
  });
});
