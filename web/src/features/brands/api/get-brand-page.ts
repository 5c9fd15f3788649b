import { queryOptions, skipToken } from '@tanstack/react-query';
import { loadDatabase } from '#web/lib/supabase.ts';
import type { BrandPageData } from '../types.ts';
import { throwBrandError } from './brand-call.ts';

/** product §brand-directory: a brand's trust page (rpc brand_page), or null when there is no such brand. */
export async function getBrandPage(slug: string): Promise<BrandPageData | null> {
  const db = await loadDatabase();
  const { data, error } = await db.rpc('brand_page', { p_slug: slug });
  if (error) throwBrandError(error);
  return (data ?? null) as BrandPageData | null;
}

/**
 * Keyed by the reader too: what the page says of claims and reports depends on who reads it. `reader`
 * is undefined while a stored session is not yet confirmed (useReaderId): the page then waits rather
 * than load as a visitor and render again, under its reader's key, from a loading state.
 */
export const brandPageQueryOptions = (slug: string, reader: string | null | undefined) =>
  queryOptions({
    queryKey: ['brands', 'page', slug, reader ?? null],
    queryFn: reader === undefined ? skipToken : () => getBrandPage(slug),
  });
