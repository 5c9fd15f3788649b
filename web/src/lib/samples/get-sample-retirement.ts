import { queryOptions } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';

/** An area whose samples retire together (decision 175). */
export type SampleArea = 'products' | 'brands' | 'news' | 'market';

export interface SampleItem {
  kind: 'product' | 'brand' | 'article' | 'series';
  name: string;
  /** Members' rows from before the guards name it: archived at retirement, never deleted. */
  kept: boolean;
}

export interface SampleRetirement {
  area: SampleArea;
  /** "when the first real product is added", …, written by the database. */
  retires_when: string;
  items: SampleItem[];
}

/** Admins: rpc sample_retirement, what each area's retirement removes and when (decision 175). */
export async function getSampleRetirement(): Promise<SampleRetirement[]> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase.rpc('sample_retirement');
  if (error) throw error;
  return (data ?? []) as SampleRetirement[];
}

/** Each area's own query-key prefix, so the area's writes (which invalidate it) refresh the notice too. */
const AREA_KEY: Record<SampleArea, string> = {
  products: 'pass-or-gas',
  brands: 'brands',
  news: 'news',
  market: 'market',
};

export const sampleRetirementQueryOptions = (area: SampleArea) =>
  queryOptions({
    queryKey: [AREA_KEY[area], 'sample-retirement'],
    queryFn: async () => (await getSampleRetirement()).find((row) => row.area === area) ?? null,
  });
