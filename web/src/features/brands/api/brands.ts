import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { ERROR_TEXTS, errorText, UserFacingError } from '#web/lib/error-text.ts';
import { refusalOf } from '#web/lib/refusals.ts';
import { loadDatabase, loadSupabase } from '#web/lib/supabase.ts';
import type { BrandListItem, BrandPageData, BrandSort } from '../types.ts';

export const PAGE_SIZE = 24;

export interface BrandFilters {
  q: string;
  state: string | null;
  category: string | null;
  verifiedOnly: boolean;
  sort: BrandSort | null;
  page: number;
}

export interface BrandListPage {
  brands: BrandListItem[];
  total: number;
}

/**
 * What a refused brand write means, in words (product §brand-directory): the one mapping of the
 * database's rules (lib/refusals.ts, decision 180) first; the brand area's guards and procedures raise
 * messages written for people; anything else reads as usual.
 */
export function brandErrorText(error: unknown): string {
  const refusal = refusalOf(error);
  if (refusal) return refusal.message;
  const message =
    error && typeof error === 'object' && 'message' in error && typeof error.message === 'string'
      ? error.message
      : '';
  const code = error && typeof error === 'object' && 'code' in error ? String(error.code) : '';
  // The brand area's own guards and procedures raise messages written for people.
  if (['42501', 'PT404', '22023', '23514', '23505'].includes(code) && message && !/violates/.test(message)) {
    return message;
  }
  if (code === '42501') return ERROR_TEXTS.permission;
  return errorText(error);
}

/** A refusal by one of the database's rules travels as it came, so a form finds its field (decision 180). */
const fail = (error: unknown): never => {
  if (refusalOf(error)) throw error;
  throw new UserFacingError(brandErrorText(error));
};

/** product §brand-directory: one page of the directory with its filters and sort. */
export async function searchBrands(filters: BrandFilters): Promise<BrandListPage> {
  const db = await loadDatabase();
  const { data, error } = await db.rpc('search_brands', {
    q: filters.q.trim() || null,
    state: filters.state,
    category: filters.category,
    verified_only: filters.verifiedOnly,
    sort: filters.sort,
    page_size: PAGE_SIZE,
    page_offset: (filters.page - 1) * PAGE_SIZE,
  });
  if (error) fail(error);
  const rows = (data ?? []) as BrandListItem[];
  return { brands: rows, total: rows[0]?.total ?? 0 };
}

export const brandsSearchQueryOptions = (filters: BrandFilters) =>
  queryOptions({
    queryKey: ['brands', 'search', filters],
    queryFn: () => searchBrands(filters),
    placeholderData: keepPreviousData,
  });

export async function getBrandPage(slug: string): Promise<BrandPageData | null> {
  const db = await loadDatabase();
  const { data, error } = await db.rpc('brand_page', { p_slug: slug });
  if (error) fail(error);
  return (data ?? null) as BrandPageData | null;
}

export const brandPageQueryOptions = (slug: string, userId: string | null) =>
  queryOptions({ queryKey: ['brands', 'page', slug, userId], queryFn: () => getBrandPage(slug) });

export interface ProfileInput {
  description: string;
  logo_url: string;
  website: string;
  social_links: string[];
}

/** A representative's (or admin's) edit of description, logo and links. */
export function useProfileUpdate(brandId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: ProfileInput) => {
      const supabase = await loadSupabase();
      const { error } = await supabase.rpc('brands_update_profile', {
        p_brand_id: brandId,
        description: input.description,
        logo_url: input.logo_url,
        website: input.website,
        social_links: input.social_links,
      });
      if (error) fail(error);
    },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['brands'] }),
  });
}

/** A member asks to represent a brand. */
export function useClaimBrand(brandId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { userId: string; roleTitle: string; message: string }) => {
      const supabase = await loadSupabase();
      const { error } = await supabase.from('brand_claims').insert({
        brand_id: brandId,
        user_id: input.userId,
        role_title: input.roleTitle,
        message: input.message,
      });
      if (error) fail(error);
    },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['brands'] }),
  });
}
