import { queryOptions } from '@tanstack/react-query';
import { loadDatabase } from '#web/lib/supabase.ts';

export interface RankingConstants {
  wilson_z: number;
  trending_half_life_hours: number;
  trending_epoch: string;
  min_account_age_hours: number;
  ring_detection: boolean;
  ring_size: number;
  ring_window_minutes: number;
  ring_account_span_hours: number;
  signal_retention_days: number;
}

/** The database's ranking settings, for "How rankings work" (decision 115). */
export async function getRankingConstants(): Promise<RankingConstants> {
  const db = await loadDatabase();
  const { data, error } = await db.rpc('votes_ranking_constants');
  if (error) throw error;
  return data as RankingConstants;
}

export const rankingConstantsQueryOptions = () =>
  queryOptions({
    queryKey: ['pass-or-gas', 'ranking-constants', {}],
    queryFn: getRankingConstants,
    staleTime: 5 * 60_000,
  });
