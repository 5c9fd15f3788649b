/**
 * The published ranking rules of Pass or Gas (decision 115), mirrored from the database so the pages
 * can explain a position with the same numbers: the database computes the stored values; these
 * functions recompute them for the "How rankings work" page and each product's explanation.
 */

/** z for 95 % confidence (two-sided), as in private.votes_wilson. */
export const WILSON_Z = 1.959964;
/** Trending half-life in hours, as in private.votes_trend_weight. */
export const TRENDING_HALF_LIFE_HOURS = 48;
/** Below this many counted votes a card shows the range, not a single percentage. */
export const FEW_VOTES = 10;

export const CATEGORIES = [
  'Flower',
  'Concentrates',
  'Edibles',
  'Vape Cartridges',
  'Topicals',
  'Accessories',
  'Seeds',
  'Other',
] as const;
export type Category = (typeof CATEGORIES)[number];

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

/** Wilson score interval of the Gas share at 95 %: [lower, upper]; [0, 1] without votes. */
export function wilsonInterval(gas: number, pass: number, z = WILSON_Z): [number, number] {
  const n = gas + pass;
  if (n <= 0) return [0, 1];
  const p = gas / n;
  const centre = p + (z * z) / (2 * n);
  const spread = z * Math.sqrt((p * (1 - p) + (z * z) / (4 * n)) / n);
  const denominator = 1 + (z * z) / n;
  return [Math.max(0, (centre - spread) / denominator), Math.min(1, (centre + spread) / denominator)];
}

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

export const percent = (share: number, digits = 0) => `${(share * 100).toFixed(digits)}%`;

/**
 * How a product's Gas share reads: a percentage once there are enough counted votes, else the 95 %
 * range, so a 1–0 product does not read "100%".
 */
export function shareSummary(gas: number, pass: number): string {
  const n = gas + pass;
  if (n === 0) return 'No counted votes yet';
  if (n < FEW_VOTES) {
    const [low, high] = wilsonInterval(gas, pass);
    return `${percent(low)}–${percent(high)} Gas (only ${n} counted ${n === 1 ? 'vote' : 'votes'})`;
  }
  return `${percent(gas / n)} Gas`;
}

export const isCategory = (value: string | null): value is Category =>
  value !== null && (CATEGORIES as readonly string[]).includes(value);
export const isStrainType = (value: string | null): value is StrainType =>
  value !== null && (STRAIN_TYPES as readonly string[]).includes(value);
export const isSort = (value: string | null): value is Sort =>
  value !== null && (SORTS as readonly string[]).includes(value);
