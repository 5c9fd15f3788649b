import { BadgeCheck, CircleAlert, Clock } from 'lucide-react';
import { Badge } from '#web/components/ui/badge.tsx';
import type { Verification } from '../types.ts';

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

/** The licence's verification, in plain words (product §brand-directory). */
export function VerificationBadge({ verification }: { verification: Verification }) {
  if (verification === 'verified') {
    return (
      <Badge className="bg-emerald-700 text-white" data-testid="verification-badge">
        <BadgeCheck aria-hidden="true" className="size-3.5" />
        Licence verified
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

/** "72% Gas across 5 products", or why there is no share yet. */
export function gasShareText(gas: number, pass: number, products: number): string {
  if (products === 0) return 'No products listed yet';
  const n = gas + pass;
  const across = `across ${products} ${products === 1 ? 'product' : 'products'}`;
  if (n === 0) return `No counted votes yet ${across}`;
  return `${Math.round((gas / n) * 100)}% Gas ${across} (${n} ${n === 1 ? 'vote' : 'votes'})`;
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
