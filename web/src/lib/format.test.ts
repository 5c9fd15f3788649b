import { describe, expect, it } from 'vitest';
import { formatFixed, formatFullDateTime, formatLongDate, formatNumber, formatShortDate } from './format.ts';

/** A fixed sequence of pseudo-random numbers in [0, 1), so a failure can be reproduced. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('formatFixed', () => {
  const intl = (digits: number) =>
    new Intl.NumberFormat('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

  it('gives what Intl.NumberFormat gives, ties and carries included', () => {
    const values = [
      0,
      -0,
      1,
      -1,
      0.5,
      1.005,
      2.675,
      1.045,
      0.125,
      0.995,
      9.995,
      99.995,
      999.995,
      999_999.995,
      1234.5,
      -1234.5,
      1_234_567.891,
      -0.001,
      -0.005,
      0.0049,
      1e-7,
      -1e-7,
      5e-7,
      4.9e-7,
      1.5e-6,
      9.99e-7,
      123_456_789_012.34,
      12.3456789,
      Number.MAX_SAFE_INTEGER,
      0.1 + 0.2,
    ];
    for (const digits of [0, 1, 2, 3, 4, 5, 6, 7]) {
      for (const value of values)
        expect(formatFixed(value, digits), `${value} to ${digits}`).toBe(intl(digits).format(value));
    }
  });

  it('agrees with Intl on many prices, index values and changes', () => {
    const next = random(42);
    for (let i = 0; i < 5000; i++) {
      const magnitude = 10 ** Math.floor(next() * 9 - 3);
      const value = (next() - 0.3) * magnitude;
      // Values with few decimals hit exact ties (…5) as prices do.
      const rounded = i % 2 === 0 ? Math.round(value * 1000) / 1000 : value;
      for (const digits of [2, 3])
        expect(formatFixed(rounded, digits), `${rounded}`).toBe(intl(digits).format(rounded));
    }
  });

  it('names what is not a number as Intl does', () => {
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1e21, -2.5e22]) {
      expect(formatFixed(value, 2)).toBe(intl(2).format(value));
    }
  });
});

describe('formatNumber', () => {
  it('gives what Intl.NumberFormat gives with its defaults', () => {
    const intl = new Intl.NumberFormat('en-US');
    const next = random(3);
    const values = [
      0,
      -0,
      1,
      10,
      100,
      1000,
      1234.5,
      0.1 + 0.2,
      1.0005,
      2.5,
      -2.5,
      99.9995,
      1e-7,
      1e21,
      Number.NaN,
    ];
    for (let i = 0; i < 5000; i++)
      values.push(Math.round((next() - 0.3) * 10 ** Math.floor(next() * 8) * 1000) / 1000);
    for (let i = 0; i < 2000; i++) values.push((next() - 0.3) * 10 ** Math.floor(next() * 8 - 2));
    for (const value of values) expect(formatNumber(value), `${value}`).toBe(intl.format(value));
  });
});

describe('dates', () => {
  const short = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
  const long = new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric' });
  const full = new Intl.DateTimeFormat('en-US', { dateStyle: 'full', timeStyle: 'short' });

  it('give what Intl.DateTimeFormat gives, in local time, every month, weekday and hour', () => {
    const dates = [
      new Date(2026, 0, 1, 0, 0),
      new Date(2026, 0, 1, 0, 30),
      new Date(2026, 8, 9, 12, 0),
      new Date(2026, 10, 26, 15, 4),
      new Date(2024, 1, 29, 23, 59),
      new Date(1999, 11, 31, 11, 59),
    ];
    const next = random(7);
    for (let i = 0; i < 3000; i++)
      dates.push(new Date(Date.UTC(2000, 0, 1) + next() * 40 * 365 * 86_400_000));
    for (const date of dates) {
      expect(formatShortDate(date)).toBe(short.format(date));
      expect(formatLongDate(date)).toBe(long.format(date));
      expect(formatFullDateTime(date)).toBe(full.format(date));
    }
  });
});
