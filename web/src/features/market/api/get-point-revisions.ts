import { queryOptions } from '@tanstack/react-query';
import { loadDatabase } from '#web/lib/supabase.ts';

export interface PointRevision {
  date: string;
  revision: number;
  value: number;
  source: string;
  as_of: string;
  replaced_at: string;
}

/** The values an index's points had before a correction replaced them. */
export async function getPointRevisions(slug: string): Promise<PointRevision[]> {
  const db = await loadDatabase();
  const { data, error } = await db
    .from('index_point_revisions')
    .select('date, revision, value, source, as_of, replaced_at')
    .eq('index_slug', slug)
    .order('date')
    .order('revision')
    .limit(5000);
  if (error) throw error;
  return (data ?? []) as PointRevision[];
}

export const pointRevisionsQueryOptions = (slug: string) =>
  queryOptions({ queryKey: ['market', 'revisions', slug], queryFn: () => getPointRevisions(slug) });
