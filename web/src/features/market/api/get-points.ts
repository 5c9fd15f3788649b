import { queryOptions } from '@tanstack/react-query';
import { type Database, loadDatabase } from '#web/lib/supabase.ts';
import { type IndexPoint, type RangeKey, rangeStart } from '../market-data.ts';
import { getLatestDate } from './get-latest-date.ts';

/**
 * The points of one range, oldest first. `database`: the client a caller already holds, so a page's
 * reads all go through one client (a visitor's through the public one, decision 158).
 */
export async function getPoints(slug: string, range: RangeKey, database?: Database): Promise<IndexPoint[]> {
  const db = database ?? (await loadDatabase());
  const latest = range === 'All' ? null : await getLatestDate(slug, db);
  const start = latest ? rangeStart(range, latest) : null;
  let query = db
    .from('index_points')
    .select('date, value, source, as_of, revision, carried, detail, is_sample')
    .eq('index_slug', slug);
  if (start) query = query.gte('date', start);
  const { data, error } = await query.order('date').limit(20000);
  if (error) throw error;
  return (data ?? []) as IndexPoint[];
}

/** One index's points of one range: the index page's panel and the home page's headline (decision 206). */
export const pointsQueryOptions = (slug: string, range: RangeKey) =>
  queryOptions({ queryKey: ['market', 'points', slug, range], queryFn: () => getPoints(slug, range) });
