import { queryOptions } from '@tanstack/react-query';
import { loadDatabase } from '#web/lib/supabase.ts';
import { HEADLINE_RANGE, type IndexKind, type IndexPoint } from '../market-data.ts';
import { getPoints } from './get-points.ts';

export interface Headline {
  slug: string;
  name: string;
  kind: IndexKind;
  /** The points of HEADLINE_RANGE, oldest first. */
  points: IndexPoint[];
}

/**
 * The home page's headlines: every index with its points of HEADLINE_RANGE (decision 206), all read
 * through one client. The points wait for the list of indices, and by then supabase-js may have loaded
 * at idle; a visitor's reads must still go through the public client (decision 158).
 */
export async function getHeadlines(): Promise<Headline[]> {
  const db = await loadDatabase();
  const indices = await db.from('market_indices').select('slug, name, kind').order('sort_order');
  if (indices.error) throw indices.error;
  return Promise.all(
    (indices.data ?? []).map(async (index) => ({
      slug: index.slug as string,
      name: index.name as string,
      kind: index.kind as IndexKind,
      points: await getPoints(index.slug as string, HEADLINE_RANGE, db),
    })),
  );
}

export const headlinesQueryOptions = () =>
  queryOptions({ queryKey: ['market', 'headlines'], queryFn: getHeadlines, staleTime: 5 * 60_000 });
