import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ProductDetail } from '../api/get-product.ts';
import type { ProductPage } from '../api/get-products.ts';
import { subscribeToTallies } from '../api/subscribe-to-tallies.ts';
import { TRENDING_HALF_LIFE_HOURS, wilsonLowerBound } from '../ranking.ts';
import type { RankedProduct, Tally } from '../types.ts';

const EPOCH_MS = Date.UTC(2026, 0, 1);

function applyTally(product: RankedProduct, tally: Tally): RankedProduct {
  const counted = tally.gas + tally.pass;
  const hours = (Date.now() - EPOCH_MS) / 3_600_000;
  return {
    ...product,
    gas: tally.gas,
    pass: tally.pass,
    counted,
    pending: tally.pending,
    held: tally.held,
    gas_share: counted > 0 ? tally.gas / counted : null,
    wilson: wilsonLowerBound(tally.gas, tally.pass),
    trend_key: tally.trend,
    trending_score: tally.trend / 2 ** (hours / TRENDING_HALF_LIFE_HOURS),
  };
}

/**
 * Follows tally changes and writes them into the cached lists and product pages, so open pages show
 * new counts without reloading (the order of a list changes on its next load, not under the pointer).
 */
export function useLiveTallies(productId: string | null): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const controller = new AbortController();
    void subscribeToTallies(
      productId,
      (tally) => {
        queryClient.setQueriesData<ProductPage>({ queryKey: ['pass-or-gas', 'products'] }, (page) =>
          page
            ? {
                ...page,
                products: page.products.map((p) => (p.id === tally.product_id ? applyTally(p, tally) : p)),
              }
            : page,
        );
        queryClient.setQueryData<ProductDetail>(
          ['pass-or-gas', 'product', { id: tally.product_id }],
          (detail) => (detail?.product ? { ...detail, product: applyTally(detail.product, tally) } : detail),
        );
      },
      controller.signal,
    ).catch(() => {});
    return () => controller.abort();
  }, [productId, queryClient]);
}
