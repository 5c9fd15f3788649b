import { useQuery } from '@tanstack/react-query';
import { BadgeCheck } from 'lucide-react';
import { Link } from 'react-router';
import { brandsSearchQueryOptions } from '#web/features/brands/api/search-brands.ts';
import { checkedDate } from '#web/features/brands/components/brand-badges.tsx';
import { cn } from '#web/lib/utils.ts';
import { HOME_COUNTS, HOME_STALE_TIME, NEWEST_VERIFIED_BRANDS_FILTERS } from './home-data.ts';
import { HomeSection, SampleLabel, Slots } from './home-section.tsx';

const BRANDS_GRID = 'grid gap-3 sm:grid-cols-2 lg:grid-cols-4';
const BRAND_ITEM = 'h-20';

export function NewestBrands() {
  // The brand directory's page the section links to (the same cache entry), its first brands.
  const query = useQuery({
    ...brandsSearchQueryOptions(NEWEST_VERIFIED_BRANDS_FILTERS),
    staleTime: HOME_STALE_TIME,
    select: (page) => page.brands.slice(0, HOME_COUNTS.brands),
  });
  const brands = query.data ?? [];
  return (
    <HomeSection
      id="brands"
      // The most recently added brands whose licence check is current (decision 207), so named.
      title="Recently added brands with a verified licence"
      link="/brand-directory?verified=1&sort=newest"
      linkLabel="Brand directory"
      icon={BadgeCheck}
      query={query}
      isEmpty={brands.length === 0}
      empty="No verified brands yet. Brands appear here once their licence is verified (checks count for 12 months)."
      boxClassName="min-h-32"
      heightEstimate="[--near-view-height:14rem] lg:[--near-view-height:12.5rem]"
      skeleton={<Slots count={HOME_COUNTS.brands} className={BRANDS_GRID} itemClassName={BRAND_ITEM} />}
    >
      <ul className={BRANDS_GRID}>
        {brands.map((brand) => (
          <li
            key={brand.id}
            className={cn(BRAND_ITEM, 'flex items-center gap-3 rounded-xl border bg-card px-4')}
          >
            <div className="min-w-0 flex-1">
              <Link
                to={`/brand-directory/${brand.slug}`}
                className="block truncate font-medium hover:underline"
              >
                {brand.name}
              </Link>
              <p className="truncate text-muted-foreground text-xs">
                <BadgeCheck aria-hidden="true" className="mr-1 inline size-3.5 text-emerald-700" />
                {/* The licence number goes wherever a brand is promoted (issue 18; some states require it). */}
                Licence verified
                {brand.licence_number
                  ? ` · ${brand.licence_state ? `${brand.licence_state} ` : ''}${brand.licence_number}`
                  : ''}
                {brand.states.length > 0 ? ` · ${brand.states.join(', ')}` : ''}
                {brand.verified_at ? ` · checked ${checkedDate(brand.verified_at)}` : ''}
              </p>
            </div>
            {brand.is_sample ? (
              <SampleLabel what="an example brand shown until real brands are added, not a real business" />
            ) : null}
          </li>
        ))}
      </ul>
    </HomeSection>
  );
}
