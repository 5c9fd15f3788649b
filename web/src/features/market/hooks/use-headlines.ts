import { useQueries, useQuery } from '@tanstack/react-query';
import { indicesQueryOptions } from '../api/get-indices.ts';
import { pointsQueryOptions } from '../api/get-points.ts';
import { HEADLINE_RANGE, type IndexKind, type IndexPoint } from '../market-data.ts';

export interface Headline {
  slug: string;
  name: string;
  kind: IndexKind;
  /** The points of HEADLINE_RANGE, oldest first. */
  points: IndexPoint[];
}

/**
 * The home page's headlines: each index's points of HEADLINE_RANGE, read through the index page's own
 * queries (the same cache entries), so the home page and the index page show the same value and change
 * for the same range (decision 206). Pending until every index's points have arrived.
 */
export function useHeadlines() {
  const indices = useQuery(indicesQueryOptions());
  const points = useQueries({
    queries: (indices.data ?? []).map((index) => pointsQueryOptions(index.slug, HEADLINE_RANGE)),
  });
  const failed = indices.isError ? indices : points.find((query) => query.isError);
  const data: Headline[] | undefined =
    indices.data && points.every((query) => query.data !== undefined)
      ? indices.data.map((index, at) => ({
          slug: index.slug,
          name: index.name,
          kind: index.kind,
          points: points[at]?.data ?? [],
        }))
      : undefined;
  return {
    data,
    isPending: !failed && data === undefined,
    isError: failed !== undefined,
    error: failed?.error ?? null,
    refetch: () => {
      if (indices.isError) return indices.refetch();
      return Promise.all(points.filter((query) => query.isError).map((query) => query.refetch()));
    },
  };
}
