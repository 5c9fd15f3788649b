import { describe, expect, it } from 'vitest';
import { parseGoDuration } from './admin.ts';

describe('parseGoDuration (ban_duration)', () => {
  it.each([
    ['24h', 86_400_000],
    ['1h30m', 5_400_000],
    ['1.5h', 5_400_000],
    ['90s', 90_000],
    ['250ms', 250],
    ['876000h', 876_000 * 3_600_000],
  ])('%s = %d ms', (value, ms) => {
    expect(parseGoDuration(value)).toBe(ms);
  });

  it.each(['', 'none', '24', 'h', '-1h', '1d', '1h 30m', '1e3h'])('refuses %j', (value) => {
    expect(parseGoDuration(value)).toBeUndefined();
  });
});
