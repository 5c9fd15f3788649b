import { useQuery } from '@tanstack/react-query';
import { ChartLine } from 'lucide-react';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { errorText } from '#web/lib/error-text.ts';
import { indicesQueryOptions } from '../api/get-indices.ts';
import type { RangeKey } from '../market-data.ts';
import { IndexPanel } from './index-panel.tsx';

interface MarketOverviewProps {
  rangeOf: (slug: string, fallback: RangeKey) => RangeKey;
  onRangeChange: (slug: string, range: RangeKey) => void;
}

/** Every published index, one panel each (product §market-index). */
export function MarketOverview({ rangeOf, onRangeChange }: MarketOverviewProps) {
  const indices = useQuery(indicesQueryOptions());
  if (indices.isPending) {
    return (
      <div className="space-y-6" aria-busy="true">
        <Skeleton className="h-96 w-full" />
        <Skeleton className="h-96 w-full" />
      </div>
    );
  }
  if (indices.isError) {
    return (
      <p role="alert" className="text-destructive">
        Market data could not be loaded: {errorText(indices.error)}
      </p>
    );
  }
  if (indices.data.length === 0) {
    return (
      <EmptyState icon={ChartLine} title="Market data is not available yet" className="mt-10">
        Index values, charts and constituents will appear here once the first market data is published.
      </EmptyState>
    );
  }
  return (
    <div className="space-y-8">
      {indices.data.map((index) => (
        <IndexPanel
          key={index.slug}
          index={index}
          range={rangeOf(index.slug, index.kind === 'flower' ? 'All' : '1Y')}
          onRangeChange={(range) => onRangeChange(index.slug, range)}
        />
      ))}
    </div>
  );
}
