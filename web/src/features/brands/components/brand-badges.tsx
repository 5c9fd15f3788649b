import { BadgeCheck, CircleAlert, Clock, History } from 'lucide-react';
import { Badge } from '#web/components/ui/badge.tsx';
import { formatShortDate } from '#web/lib/format.ts';
import { FEW_VOTES, gasShare } from '#web/lib/gas-share.ts';
import type { Verification } from '../types.ts';

/** "Nov 1, 2026" for a check's timestamp, in UTC so every reader sees the same day. */
export function checkedDate(value: string): string {
  const date = new Date(value);
  return formatShortDate(new Date(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

/** "November 3, 2026" for a date or a timestamp, in UTC (the brand page's licences and reports). */
export const dateText = (value: string): string =>
  new Date(value.length === 10 ? `${value}T12:00:00Z` : value).toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  });

/** Samples say so, to eyes and to screen readers (product §samples). */
export function BrandSampleBadge() {
  return (
    <Badge variant="outline" className="border-amber-500 text-amber-700 dark:text-amber-300">
      Sample
      <span className="sr-only">
        {' '}
        — an example brand shown until real brands are added, not a real business
      </span>
    </Badge>
  );
}

/**
 * The licence's verification, in plain words (product §brand-directory); "due for re-check" with the
 * date of the last check (decision 207). A verified badge's date is `CheckedOn`, beside it.
 */
export function VerificationBadge({
  verification,
  checkedAt = null,
}: {
  verification: Verification;
  checkedAt?: string | null;
}) {
  if (verification === 'verified') {
    return (
      <Badge className="bg-emerald-700 text-white" data-testid="verification-badge">
        <BadgeCheck aria-hidden="true" className="size-3.5" />
        Licence verified
      </Badge>
    );
  }
  if (verification === 'recheck_due') {
    return (
      <Badge variant="outline" className="border-amber-600" data-testid="verification-badge">
        <History aria-hidden="true" className="size-3.5" />
        Due for re-check{checkedAt ? ` · last checked ${checkedDate(checkedAt)}` : ''}
      </Badge>
    );
  }
  if (verification === 'expired') {
    return (
      <Badge variant="outline" className="border-amber-600" data-testid="verification-badge">
        <Clock aria-hidden="true" className="size-3.5" />
        Verification expired
      </Badge>
    );
  }
  return (
    <Badge variant="outline" data-testid="verification-badge">
      <CircleAlert aria-hidden="true" className="size-3.5" />
      Not verified
    </Badge>
  );
}

/** When a verified licence was checked (decision 207), beside its badge: "checked Nov 1, 2026". */
export function CheckedOn({
  verification,
  checkedAt,
}: {
  verification: Verification;
  checkedAt: string | null;
}) {
  if (verification !== 'verified' || !checkedAt) return null;
  return (
    <span className="text-muted-foreground text-xs" data-testid="verification-checked">
      checked {checkedDate(checkedAt)}
    </span>
  );
}

/**
 * "72% Gas across 5 products (12 votes)", or why there is no share yet. Under FEW_VOTES counted votes
 * the 95 % range instead, as on a product's card (decision 208): "44%–100% Gas across 1 product (only
 * 3 counted votes)".
 */
export function gasShareText(gas: number, pass: number, products: number): string {
  if (products === 0) return 'No products listed yet';
  const n = gas + pass;
  const across = `across ${products} ${products === 1 ? 'product' : 'products'}`;
  if (n === 0) return `No counted votes yet ${across}`;
  if (n < FEW_VOTES)
    return `${gasShare(gas, pass)} ${across} (only ${n} counted ${n === 1 ? 'vote' : 'votes'})`;
  return `${gasShare(gas, pass)} ${across} (${n} votes)`;
}

export function BrandLogo({ name, url, className }: { name: string; url: string | null; className: string }) {
  return url ? (
    <img src={url} alt="" loading="lazy" className={`${className} rounded-lg bg-secondary object-contain`} />
  ) : (
    <div
      aria-hidden="true"
      className={`${className} flex items-center justify-center rounded-lg bg-secondary font-bold text-muted-foreground text-xl`}
    >
      {name.trim().charAt(0).toUpperCase() || '?'}
    </div>
  );
}
