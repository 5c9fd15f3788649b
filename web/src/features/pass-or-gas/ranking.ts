/**
 * The published ranking rules of Pass or Gas (decision 115), mirrored from the database so the pages
 * can explain a position with the same numbers: the database computes the stored values; these
 * functions recompute them for the "How rankings work" page and each product's explanation.
 */

import { FEW_VOTES, gasShare, percent, WILSON_Z, wilsonInterval } from '#web/lib/gas-share.ts';
import { PRODUCT_CATEGORIES, type ProductCategory } from '#web/lib/product-categories.ts';

// The small-sample rule lives in lib/ (the brand directory and the home page use it too, decision 208).
export { FEW_VOTES, percent, WILSON_Z, wilsonInterval };
/** Trending half-life in hours, as in private.votes_trend_weight. */
export const TRENDING_HALF_LIFE_HOURS = 48;

/** A product's categories: the one catalogue (lib/product-categories.ts). */
export const CATEGORIES = PRODUCT_CATEGORIES;
export type Category = ProductCategory;

export const STRAIN_TYPES = ['indica', 'sativa', 'hybrid', 'n/a'] as const;
export type StrainType = (typeof STRAIN_TYPES)[number];
export const STRAIN_LABELS: Record<StrainType, string> = {
  indica: 'Indica',
  sativa: 'Sativa',
  hybrid: 'Hybrid',
  'n/a': 'Not applicable',
};

export const SORTS = ['top', 'trending', 'new'] as const;
export type Sort = (typeof SORTS)[number];
export const SORT_LABELS: Record<Sort, string> = { top: 'Top', trending: 'Trending', new: 'New' };

/** The Top score: the interval's lower bound (0 without votes). */
export function wilsonLowerBound(gas: number, pass: number): number {
  return gas + pass <= 0 ? 0 : wilsonInterval(gas, pass)[0];
}

/** One counted vote's weight in the Trending score after `ageHours`: 2^(−age / half-life). */
export function decayWeight(ageHours: number, halfLifeHours = TRENDING_HALF_LIFE_HOURS): number {
  return 2 ** (-ageHours / halfLifeHours);
}

/** Trending score of votes given as { gas, ageHours }: Σ ±2^(−age / half-life). */
export function trendingScore(votes: readonly { gas: boolean; ageHours: number }[]): number {
  return votes.reduce((sum, vote) => sum + (vote.gas ? 1 : -1) * decayWeight(vote.ageHours), 0);
}

/**
 * What anyone can check of a Trending score from public data (decision 208). Each vote's exact time is
 * not published (it would tell when a member voted); its UTC day is, as counted Gas and Pass per
 * product and day (`product_vote_days`, the product page's chart). A vote of day d weighs at least its
 * weight at d's start and at most its weight at d's end (or now), so the score lies within
 * [low, high] — at most a factor of 2^(24 h / half-life) = √2 apart per vote.
 */
export function trendingBounds(
  days: readonly { day: string; gas: number; pass: number }[],
  now: Date,
  halfLifeHours = TRENDING_HALF_LIFE_HOURS,
): [number, number] {
  let low = 0;
  let high = 0;
  for (const { day, gas, pass } of days) {
    const start = Date.parse(`${day}T00:00:00Z`);
    const end = Math.min(start + 86_400_000, now.getTime());
    const lightest = decayWeight((now.getTime() - start) / 3_600_000, halfLifeHours);
    const heaviest = decayWeight((now.getTime() - end) / 3_600_000, halfLifeHours);
    low += gas * lightest - pass * heaviest;
    high += gas * heaviest - pass * lightest;
  }
  return [low, high];
}

/**
 * How a product's Gas share reads: a percentage once there are enough counted votes, else the 95 %
 * range, so a 1–0 product does not read "100%".
 */
export function shareSummary(gas: number, pass: number): string {
  const n = gas + pass;
  if (n === 0) return 'No counted votes yet';
  if (n < FEW_VOTES) return `${gasShare(gas, pass)} (only ${n} counted ${n === 1 ? 'vote' : 'votes'})`;
  return gasShare(gas, pass);
}

export const isCategory = (value: string | null): value is Category =>
  value !== null && (CATEGORIES as readonly string[]).includes(value);
export const isStrainType = (value: string | null): value is StrainType =>
  value !== null && (STRAIN_TYPES as readonly string[]).includes(value);
export const isSort = (value: string | null): value is Sort =>
  value !== null && (SORTS as readonly string[]).includes(value);
