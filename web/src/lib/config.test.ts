import { describe, expect, it } from 'vitest';
import { DEFAULT_AUTO_SIGN_OUT_MS, parseConfig } from './config.ts';

describe('parseConfig', () => {
  it('keeps well-typed values and trims trailing slashes from the API URL', () => {
    const config = parseConfig({
      supabaseUrl: 'https://api.example/',
      anonKey: 'key',
      siteName: 'HG',
      supportEmail: 'help@example.com',
      styleNonce: 'n0nce',
      autoSignOutMs: 5000,
      payments: 'stripe',
    });
    expect(config).toEqual({
      supabaseUrl: 'https://api.example',
      anonKey: 'key',
      siteName: 'HG',
      supportEmail: 'help@example.com',
      styleNonce: 'n0nce',
      autoSignOutMs: 5000,
      payments: 'stripe',
    });
  });

  it('falls back to safe defaults for anything missing or mistyped', () => {
    const config = parseConfig({ siteName: 42, autoSignOutMs: '5000', styleNonce: '' });
    expect(config.siteName).toBe('HighGrade');
    expect(config.styleNonce).toBeNull();
    expect(config.autoSignOutMs).toBe(DEFAULT_AUTO_SIGN_OUT_MS);
    expect(DEFAULT_AUTO_SIGN_OUT_MS).toBe(7_200_000);
    // Anything but 'stripe' is the demo mode (no payment is taken).
    expect(config.payments).toBe('demo');
    expect(parseConfig({ payments: 'paypal' }).payments).toBe('demo');
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, null])(
    'refuses %s as the idle time',
    (value) => {
      expect(parseConfig({ autoSignOutMs: value }).autoSignOutMs).toBe(DEFAULT_AUTO_SIGN_OUT_MS);
    },
  );

  it('accepts garbage without throwing', () => {
    expect(parseConfig(null).siteName).toBe('HighGrade');
    expect(parseConfig('nonsense').anonKey).toBe('');
  });
});
