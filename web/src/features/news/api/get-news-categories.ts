import { queryOptions } from '@tanstack/react-query';
import { loadDatabase } from '#web/lib/supabase.ts';

/** The categories of the enabled sources, for the chips (the team's posts add "Team"). */
export async function getNewsCategories(): Promise<string[]> {
  const db = await loadDatabase();
  const { data, error } = await db.from('news_sources').select('category').eq('enabled', true);
  if (error) throw error;
  return [...new Set((data ?? []).map((row) => row.category as string))].sort(byName);
}

/**
 * Case-insensitive, then exact: the same order on every database and browser, without localeCompare,
 * whose first use sets up ICU in the browser, a long task (decision 162).
 */
export function byName(a: string, b: string): number {
  const [lowerA, lowerB] = [a.toLowerCase(), b.toLowerCase()];
  if (lowerA !== lowerB) return lowerA < lowerB ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

export const newsCategoriesQueryOptions = () =>
  queryOptions({ queryKey: ['news', 'categories', {}], queryFn: getNewsCategories, staleTime: 5 * 60_000 });
