import { queryOptions } from '@tanstack/react-query';
import { loadDatabase } from '#web/lib/supabase.ts';

/** The market data through the data API (product §market-index): everyone reads; nothing here writes. */

export interface MarketIndex {
  slug: string;
  kind: 'equity' | 'flower';
  name: string;
  description: string;
  methodology: string;
  base_date: string | null;
  base_value: number;
  unit: string;
  currency: string | null;
  /** Whether the index's latest value is a sample: its page labels it before the values arrive. */
  latest_is_sample: boolean;
  /**
   * Whether the index has any value yet. Without one, its page says so at once instead of holding the
   * chart's place and then giving it up (a layout shift).
   */
  has_values: boolean;
  /** The date of the index's latest value: whether it is stale is known before the values arrive. */
  latest_date: string | null;
}

export async function getIndices(): Promise<MarketIndex[]> {
  const db = await loadDatabase();
  const { data, error } = await db
    .from('market_indices')
    .select(
      'slug, kind, name, description, methodology, base_date, base_value, unit, currency, latest:index_points(is_sample, date)',
    )
    .order('sort_order')
    .order('date', { referencedTable: 'index_points', ascending: false })
    .limit(1, { referencedTable: 'index_points' });
  if (error) throw error;
  return (data ?? []).map(({ latest, ...index }) => ({
    ...index,
    latest_is_sample: (latest as { is_sample: boolean }[] | null)?.[0]?.is_sample === true,
    has_values: ((latest as unknown[] | null) ?? []).length > 0,
    latest_date: (latest as { date: string }[] | null)?.[0]?.date ?? null,
  })) as MarketIndex[];
}

export const indicesQueryOptions = () =>
  queryOptions({ queryKey: ['market', 'indices'], queryFn: getIndices, staleTime: 5 * 60_000 });
