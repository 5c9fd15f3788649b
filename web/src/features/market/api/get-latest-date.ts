import { type Database, loadDatabase } from '#web/lib/supabase.ts';

/**
 * The date of an index's latest point (what a range counts back from). `database`: the client a caller
 * already holds, so a page's reads all go through one client (a visitor's through the public one,
 * decision 158).
 */
export async function getLatestDate(slug: string, database?: Database): Promise<string | null> {
  const db = database ?? (await loadDatabase());
  const { data, error } = await db
    .from('index_points')
    .select('date')
    .eq('index_slug', slug)
    .order('date', { ascending: false })
    .limit(1);
  if (error) throw error;
  return (data?.[0]?.date as string | undefined) ?? null;
}
