import { queryOptions } from '@tanstack/react-query';
import { loadDatabase } from '#web/lib/supabase.ts';

/** The categories of the enabled sources, for the chips (the team's posts add "Team"). */
export async function getNewsCategories(): Promise<string[]> {
  const db = await loadDatabase();
  // Sorted by the database: localeCompare would set up ICU in the browser, a long task (lib/format.ts).
  const { data, error } = await db
    .from('news_sources')
    .select('category')
    .eq('enabled', true)
    .order('category');
  if (error) throw error;
  return [...new Set((data ?? []).map((row) => row.category as string))];
}

export const newsCategoriesQueryOptions = () =>
  queryOptions({ queryKey: ['news', 'categories', {}], queryFn: getNewsCategories, staleTime: 5 * 60_000 });
