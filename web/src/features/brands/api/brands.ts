import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { ERROR_TEXTS, errorText, UserFacingError } from '#web/lib/error-text.ts';
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
 * What a refused brand write means, in words (product §brand-directory): the database names the rule
 * (constraint) or says why (guards raise messages written for people); anything else reads as usual.
 */
const CONSTRAINT_TEXTS: Record<string, string> = {
  brands_slug_key: 'Another brand already uses this address (slug). Choose another.',
  brands_slug_format: 'The address (slug) may hold only lower-case letters, digits and single hyphens.',
  brands_name_length: 'The name must be 1 to 120 characters.',
  brands_name_markup: 'The name may not contain script markup.',
  brands_description_length: 'The description may be at most 4000 characters.',
  brands_description_markup: 'The description may not contain script markup.',
  brands_logo_url_format: 'The logo must be an https:// address of an image.',
  brands_website_format: 'The website must be a full http:// or https:// address.',
  brands_social_links_format: 'Each social link must be a full http:// or https:// address (at most 10).',
  brands_states_format: 'Choose states by their two-letter codes.',
  brands_city_format: 'The city must be 1 to 120 characters, without markup.',
  brands_categories_format: 'Choose categories from the list.',
  brands_licence_number_format:
    'The licence number may hold letters, digits, spaces and . / # - (at most 64).',
  brands_licence_state_format: 'The licence state must be a two-letter code.',
  brands_licence_type_format: 'The licence type must be 1 to 100 characters, without markup.',
  brands_verified_complete:
    'A verified licence needs its number, issuing state, the verification date and an evidence note.',
  brands_verification_note_format: 'The evidence note may be at most 2000 characters, without script markup.',
  brands_verified_at_not_future: 'The verification date cannot be in the future.',
  brand_licences_number_format:
    'The licence number may hold letters, digits, spaces and . / # - (at most 64).',
  brand_licences_state_format: 'The licence state must be a two-letter code.',
  brand_licences_type_format: 'The licence type must be 1 to 100 characters, without markup.',
  brand_licences_verified_complete: 'A verified licence needs the verification date and an evidence note.',
  brand_licences_verification_note_format:
    'The evidence note may be at most 2000 characters, without script markup.',
  brand_licences_number_key: 'This brand already lists a licence with this number from this state.',
  brand_claims_role_title_length: 'Say your role at the brand in 2 to 100 characters.',
  brand_claims_role_title_markup: 'Your role may not contain markup.',
  brand_claims_message_length: 'The message may be at most 2000 characters.',
  brand_claims_message_markup: 'The message may not contain script markup.',
  brand_claims_open_key: 'You already have a pending or approved claim for this brand.',
};

export function brandErrorText(error: unknown): string {
  const message =
    error && typeof error === 'object' && 'message' in error && typeof error.message === 'string'
      ? error.message
      : '';
  const code = error && typeof error === 'object' && 'code' in error ? String(error.code) : '';
  for (const [constraint, text] of Object.entries(CONSTRAINT_TEXTS)) {
    if (message.includes(constraint)) return text;
  }
  // The brand area's own guards and procedures raise messages written for people.
  if (['42501', 'P0002', '22023', '23514', '23505'].includes(code) && message && !/violates/.test(message)) {
    return message;
  }
  if (code === '42501') return ERROR_TEXTS.permission;
  return errorText(error);
}

const fail = (error: unknown): never => {
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
