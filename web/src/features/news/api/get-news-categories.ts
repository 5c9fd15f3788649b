import { queryOptions } from '@tanstack/react-query';
import { loadDatabase } from '#web/lib/supabase.ts';

/** The categories of the enabled sources, for the chips (the team's posts add "Team"). */
export async function getNewsCategories(): Promise<string[]> {
  const db = await loadDatabase();
  const { data, error } = await db.from('news_sources').select('category').eq('enabled', true);
  if (error) throw error;
  return [...new Set((data ?? []).map((row) => row.category as string))].sort((a, b) => a.localeCompare(b));
}

export const newsCategoriesQueryOptions = () =>
  queryOptions({ queryKey: ['news', 'categories', {}], queryFn: getNewsCategories, staleTime: 5 * 60_000 });
