import { queryOptions } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import { type SearchFilters, searchArgs } from '../database.ts';
import type { PublishedReport } from './get-published-report.ts';

export const PAGE_SIZE = 20;

/** product §scammer-database: the search (typo-tolerant), filters and sort; one page more per "Show more". */
export async function searchReports(filters: SearchFilters, pages: number): Promise<PublishedReport[]> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase.rpc(
    'search_scammer_reports',
    searchArgs(filters, PAGE_SIZE * pages + 1),
  );
  if (error) throw error;
  return (data ?? []) as PublishedReport[];
}

export const searchReportsQueryOptions = (userId: string | null, filters: SearchFilters, pages: number) =>
  queryOptions({
    queryKey: ['scammer-reports', 'search', { userId, filters, pages }],
    queryFn: () => searchReports(filters, pages),
    enabled: userId !== null,
    placeholderData: (previous) => previous,
  });
