import { useQuery } from '@tanstack/react-query';
import { Flame } from 'lucide-react';
import { Link } from 'react-router';
import { productsQueryOptions } from '#web/features/pass-or-gas/api/get-products.ts';
import { FEW_VOTES, gasShare } from '#web/lib/gas-share.ts';
import { cn } from '#web/lib/utils.ts';
import { HOME_COUNTS, HOME_STALE_TIME, TOP_PRODUCTS_FILTERS } from './home-data.ts';
import { HomeSection, SampleLabel, Slots } from './home-section.tsx';

const LEADER_ITEM = 'h-14';

export function PassOrGasLeaders() {
  // Pass or Gas "Top" (Wilson lower bound of the Gas share over every counted vote, decision 115) as
  // /pass-or-gas first shows it (the same cache entry): all-time, not today's votes, and the title says so.
  const query = useQuery({
    ...productsQueryOptions(TOP_PRODUCTS_FILTERS),
    staleTime: HOME_STALE_TIME,
    select: (page) => page.products.slice(0, HOME_COUNTS.leaders),
  });
  const leaders = query.data ?? [];
  return (
    <HomeSection
      id="leaders"
      // The all-time Top list (Wilson lower bound over every counted vote), so named (decision 208).
      title="Top-rated on Pass or Gas"
      link="/pass-or-gas"
      linkLabel="All rankings"
      icon={Flame}
      query={query}
      isEmpty={leaders.length === 0}
      empty="No products to rank yet. Products appear here once they are added and voted on."
      boxClassName="min-h-36"
      heightEstimate="[--near-view-height:25rem] lg:[--near-view-height:23rem]"
      skeleton={<Slots count={HOME_COUNTS.leaders} className="grid gap-2" itemClassName={LEADER_ITEM} />}
    >
      <ol className="grid grid-cols-1 gap-2">
        {leaders.map((product, index) => (
          <li
            key={product.id}
            className={cn(LEADER_ITEM, 'flex items-center gap-3 rounded-xl border bg-card px-4')}
          >
            <span className="w-6 shrink-0 font-bold text-muted-foreground tabular-nums">{index + 1}</span>
            <div className="min-w-0 flex-1">
              <Link to={`/pass-or-gas/${product.id}`} className="block truncate font-medium hover:underline">
                {product.name}
              </Link>
              <p className="truncate text-muted-foreground text-xs">{product.brand_name ?? 'No brand'}</p>
            </div>
            {product.is_sample ? (
              <SampleLabel what="an example product shown until real products are added, not a real product" />
            ) : null}
            <span className="shrink-0 text-right text-sm tabular-nums">
              {product.counted === 0 ? (
                <span className="text-muted-foreground">No votes yet</span>
              ) : (
                // Under 10 counted votes the 95% range, as on the product's card (decision 208).
                <span className="font-semibold" data-testid="leader-share">
                  {gasShare(product.gas, product.pass)}
                  <span className="block font-normal text-muted-foreground text-xs">
                    {product.counted < FEW_VOTES ? 'only ' : ''}
                    {product.counted} {product.counted === 1 ? 'vote' : 'votes'}
                  </span>
                </span>
              )}
            </span>
          </li>
        ))}
      </ol>
    </HomeSection>
  );
}
