import { useQuery } from '@tanstack/react-query';
import { Search, ThumbsUp } from 'lucide-react';
import { useDeferredValue, useMemo } from 'react';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { useConfirmedUserId } from '#web/lib/auth/hooks/use-auth.ts';
import { errorText } from '#web/lib/error-text.ts';
import { myVotesQueryOptions } from '../api/get-my-votes.ts';
import { type ProductFilters, productsQueryOptions } from '../api/get-products.ts';
import { ProductCard } from './product-card.tsx';

/** The list's answer to its filters: loading, error, no match, none yet, or the ranked cards. */
export function ProductListResults({
  filters,
  signedIn,
  onSignIn,
  onMore,
  onClear,
}: {
  filters: ProductFilters;
  signedIn: boolean;
  onSignIn: () => void;
  /** Load more: one page more. */
  onMore: () => void;
  onClear: () => void;
}) {
  const userId = useConfirmedUserId();
  const products = useQuery(productsQueryOptions(filters));
  // The list (24 cards) renders from a deferred copy of the data: an interruptible render, cut into
  // short tasks, rather than one long task when the data arrives (decision 158). Until the copy has
  // caught up, the placeholders stay.
  const shownProducts = useDeferredValue(products.data);
  const ids = useMemo(() => products.data?.products.map((p) => p.id) ?? [], [products.data]);
  const votes = useQuery(myVotesQueryOptions(userId, ids));
  const filtered = Boolean(filters.category || filters.brand || filters.strain || filters.q);

  return (
    <section aria-label="Products" aria-busy={products.isFetching} className="mt-8">
      {products.isPending || (!products.isError && shownProducts === undefined) ? (
        <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3" data-testid="products-loading">
          {Array.from({ length: 6 }, (_, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
            <Skeleton key={index} className="h-80 rounded-xl" />
          ))}
        </div>
      ) : products.isError ? (
        <EmptyState
          icon={ThumbsUp}
          title="Products could not be loaded"
          actions={<Button onClick={() => void products.refetch()}>Try again</Button>}
        >
          {errorText(products.error)}
        </EmptyState>
      ) : shownProducts === undefined || shownProducts.products.length === 0 ? (
        filtered ? (
          <EmptyState
            icon={Search}
            title="No products match"
            actions={
              <Button variant="outline" onClick={onClear}>
                Clear filters
              </Button>
            }
          >
            Try another name, or fewer filters.
          </EmptyState>
        ) : (
          <EmptyState icon={ThumbsUp} title="No products to vote on yet">
            Products will appear here once they are added. Members vote once per product, can change their
            vote and discuss each product in the comments.
          </EmptyState>
        )
      ) : (
        <>
          <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {shownProducts.products.map((product, index) => (
              <li key={product.id} className="flex">
                <div className="flex w-full flex-col [&>*]:flex-1">
                  <ProductCard
                    product={product}
                    rank={index + 1}
                    vote={votes.data?.[product.id]}
                    signedIn={signedIn}
                    onSignIn={onSignIn}
                  />
                </div>
              </li>
            ))}
          </ul>
          {shownProducts.hasMore ? (
            <div className="mt-8 flex justify-center">
              <Button variant="outline" disabled={products.isFetching} onClick={onMore}>
                {products.isFetching ? 'Loading…' : 'Load more'}
              </Button>
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}
