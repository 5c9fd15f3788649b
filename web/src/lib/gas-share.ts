/**
 * The small-sample rule for a Gas share, wherever one is shown (decision 208; first on a product's card):
 * under FEW_VOTES counted votes the 95 % Wilson interval, not a single percentage, so a 1–0 product
 * does not read "100%". Shared by Pass or Gas, the brand directory and the home page.
 */

/** z for 95 % confidence (two-sided), as in private.votes_wilson. */
export const WILSON_Z = 1.959964;
/** Below this many counted votes a share reads as a range, not a single percentage. */
export const FEW_VOTES = 10;

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

export const percent = (share: number, digits = 0) => `${(share * 100).toFixed(digits)}%`;

/** "75% Gas", or under FEW_VOTES counted votes "44%–100% Gas" (the caller says how few votes). */
export function gasShare(gas: number, pass: number): string {
  const n = gas + pass;
  if (n < FEW_VOTES) {
    const [low, high] = wilsonInterval(gas, pass);
    return `${percent(low)}–${percent(high)} Gas`;
  }
  return `${percent(gas / n)} Gas`;
}
