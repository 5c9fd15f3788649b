import { describe, expect, it } from 'vitest';
import { decayWeight, shareSummary, trendingScore, wilsonInterval, wilsonLowerBound } from './ranking.ts';

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

  it('few votes read as a range, enough as a percentage', () => {
    expect(shareSummary(0, 0)).toBe('No counted votes yet');
    expect(shareSummary(1, 0)).toBe('21%–100% Gas (only 1 counted vote)');
    expect(shareSummary(30, 10)).toBe('75% Gas');
  });
});
