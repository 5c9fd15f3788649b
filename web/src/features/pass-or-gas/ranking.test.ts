import { describe, expect, it } from 'vitest';
import {
  decayWeight,
  shareSummary,
  trendingBounds,
  trendingScore,
  wilsonInterval,
  wilsonLowerBound,
} from './ranking.ts';

describe('ranking rules (decision 115), hand-computed', () => {
  it('Wilson lower bound: 0 votes, all Gas, all Pass, mixed', () => {
    expect(wilsonLowerBound(0, 0)).toBe(0);
    // p̂ = 1, n = 10: 1 / (1 + z²/10) = 1 / 1.3841459
    expect(wilsonLowerBound(10, 0)).toBeCloseTo(0.7224672, 6);
    expect(wilsonLowerBound(0, 10)).toBeCloseTo(0, 9);
    expect(wilsonLowerBound(5, 5)).toBeCloseTo(0.2365931, 6);
    expect(wilsonLowerBound(1, 0)).toBeCloseTo(0.2065493, 6);
    expect(wilsonInterval(0, 0)).toEqual([0, 1]);
  });

  it('Trending: a vote halves every 48 hours', () => {
    expect(decayWeight(0)).toBe(1);
    expect(decayWeight(48)).toBe(0.5);
    expect(trendingScore([])).toBe(0);
    expect(
      trendingScore([
        { gas: true, ageHours: 48 },
        { gas: true, ageHours: 96 },
        { gas: false, ageHours: 0 },
      ]),
    ).toBeCloseTo(-0.25, 12);
  });

  it('Trending bounds from per-day counts: each day between its start and its end (decision 208)', () => {
    const now = new Date('2026-12-03T00:00:00Z');
    // 2026-12-01: 2 Gas, ages 24–48 h, weights 0.5–0.7071; 2026-12-02: 1 Pass, ages 0–24 h, 0.7071–1.
    const [low, high] = trendingBounds(
      [
        { day: '2026-12-01', gas: 2, pass: 0 },
        { day: '2026-12-02', gas: 0, pass: 1 },
      ],
      now,
    );
    expect(low).toBeCloseTo(2 * 0.5 - 1, 12);
    expect(high).toBeCloseTo(2 * Math.SQRT1_2 - Math.SQRT1_2, 12);
    // Votes at known times fall within: Gas at 30 h and 40 h, Pass at 10 h.
    const score = trendingScore([
      { gas: true, ageHours: 30 },
      { gas: true, ageHours: 40 },
      { gas: false, ageHours: 10 },
    ]);
    expect(score).toBeGreaterThanOrEqual(low);
    expect(score).toBeLessThanOrEqual(high);
    // Today's votes weigh between the day's start and now.
    expect(
      trendingBounds([{ day: '2026-12-03', gas: 1, pass: 0 }], new Date('2026-12-03T12:00:00Z')),
    ).toEqual([decayWeight(12), 1]);
  });

  it('few votes read as a range, enough as a percentage', () => {
    expect(shareSummary(0, 0)).toBe('No counted votes yet');
    expect(shareSummary(1, 0)).toBe('21%–100% Gas (only 1 counted vote)');
    expect(shareSummary(30, 10)).toBe('75% Gas');
  });
});
