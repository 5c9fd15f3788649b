import { describe, expect, it } from 'vitest';
import { toEpochSeconds, toIso } from './time.ts';

describe('toIso', () => {
  it.each([
    ['2024-05-01 12:34:56.123456+00', '2024-05-01T12:34:56.123456Z'],
    ['2024-05-01 12:34:56+00', '2024-05-01T12:34:56.000000Z'],
    ['2024-05-01 14:34:56.5+02', '2024-05-01T12:34:56.500000Z'],
    ['2024-05-01T12:34:56.123456+00:00', '2024-05-01T12:34:56.123456Z'],
    ['2024-05-01T07:04:56.1-05:30', '2024-05-01T12:34:56.100000Z'],
    ['2024-01-01 00:00:00+00', '2024-01-01T00:00:00.000000Z'],
    ['2024-01-01 00:30:00+01', '2023-12-31T23:30:00.000000Z'],
    ['2024-05-01 12:34:56', '2024-05-01T12:34:56.000000Z'],
  ])('%s → %s', (input, output) => {
    expect(toIso(input)).toBe(output);
  });

  it('leaves absent and unreadable values out', () => {
    expect(toIso(null)).toBeUndefined();
    expect(toIso(undefined)).toBeUndefined();
    expect(toIso('infinity')).toBeUndefined();
  });

  it('gives epoch seconds', () => {
    expect(toEpochSeconds('1970-01-01 00:01:40+00')).toBe(100);
    expect(toEpochSeconds(null)).toBe(0);
  });
});
