import { MapPin } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '#web/components/ui/badge.tsx';
import { Card } from '#web/components/ui/card.tsx';
import type { BrandListItem } from '../types.ts';
import { BrandLogo, BrandSampleBadge, CheckedOn, gasShareText, VerificationBadge } from './brand-badges.tsx';

/** One brand in the directory (product §brand-directory): logo, name, state, categories, badge, Gas share. */
export function BrandCard({ brand }: { brand: BrandListItem }) {
  const share = brand.gas + brand.pass > 0 ? brand.gas / (brand.gas + brand.pass) : 0;
  const where = [brand.city, brand.states.join(', ')].filter(Boolean).join(' · ');
  return (
    <Card className="flex h-full flex-col gap-3 p-4" data-testid="brand-card">
      <div className="flex items-start gap-3">
        <BrandLogo name={brand.name} url={brand.logo_url} className="size-14 shrink-0" />
        <div className="min-w-0 flex-1">
          <h2 className="font-semibold leading-snug">
            <Link to={`/brand-directory/${brand.slug}`} className="hover:underline">
              {brand.name}
            </Link>
          </h2>
          {where ? (
            <p className="flex items-center gap-1 text-muted-foreground text-sm">
              <MapPin aria-hidden="true" className="size-3.5 shrink-0" />
              {where}
            </p>
          ) : null}
        </div>
      </div>
      <div className="flex flex-wrap gap-1.5">
        <VerificationBadge verification={brand.verification} checkedAt={brand.verified_at} />
        <CheckedOn verification={brand.verification} checkedAt={brand.verified_at} />
        {brand.is_sample ? <BrandSampleBadge /> : null}
        {brand.categories.map((category) => (
          <Badge key={category} variant="secondary">
            {category}
          </Badge>
        ))}
      </div>
      {brand.licence_number ? (
        <p className="text-muted-foreground text-xs">
          Licence {brand.licence_state ? `${brand.licence_state} ` : ''}
          {brand.licence_number}
        </p>
      ) : null}
      <div className="mt-auto grid gap-1.5">
        <div
          className="h-2 overflow-hidden rounded-full bg-secondary"
          role="img"
          aria-label={`Gas share: ${gasShareText(brand.gas, brand.pass, brand.products)}`}
        >
          <div className="h-full bg-primary" style={{ width: `${(share * 100).toFixed(1)}%` }} />
        </div>
        <p className="text-muted-foreground text-sm" data-testid="brand-share">
          {gasShareText(brand.gas, brand.pass, brand.products)}
        </p>
      </div>
    </Card>
  );
}
