import { queryOptions } from '@tanstack/react-query';
import { loadDatabase } from '#web/lib/supabase.ts';

export interface FlowerObservation {
  state: string;
  series: string;
  period: string;
  unit: string;
  value: number;
  usd_per_gram: number;
  statistic: string;
  source: string;
  note: string | null;
  revision: number;
}

/** Every regulator price point the flower index is computed from, by state and period. */
export async function getFlowerObservations(): Promise<FlowerObservation[]> {
  const db = await loadDatabase();
  const { data, error } = await db
    .from('flower_price_observations')
    .select('state, series, period, unit, value, usd_per_gram, statistic, source, note, revision')
    .order('state')
    .order('period');
  if (error) throw error;
  return (data ?? []) as FlowerObservation[];
}

export const flowerObservationsQueryOptions = () =>
  queryOptions({ queryKey: ['market', 'flower-observations'], queryFn: getFlowerObservations });
