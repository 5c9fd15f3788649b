import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { UserFacingError } from '#web/lib/error-text.ts';
import { refusalOf } from '#web/lib/refusals.ts';
import { loadSupabase } from '#web/lib/supabase.ts';
import { brandErrorText } from '../api/brands.ts';
import type { Brand, BrandClaim, BrandLicence } from '../types.ts';

/**
 * A refusal by one of the database's rules travels as it came, so the form can find its field in the one
 * mapping (lib/refusals.ts, decision 180) and errorText words it from there; anything else is worded here.
 */
const fail = (error: unknown): never => {
  if (refusalOf(error)) throw error;
  throw new UserFacingError(brandErrorText(error));
};

const COLUMNS =
  'id, name, slug, description, logo_url, website, social_links, states, city, categories, licence_number, licence_state, licence_type, licence_expires_on, verification, shown_verification, verified_at, verification_note, archived_at, merged_into, is_sample, created_at, updated_at';

/** Brands for the admin list: live first, archived when asked; a name filter. */
export async function getAdminBrands(q: string, archived: boolean): Promise<Brand[]> {
  const supabase = await loadSupabase();
  let query = supabase.from('brands').select(COLUMNS);
  query = archived ? query.not('archived_at', 'is', null) : query.is('archived_at', null);
  if (q.trim()) query = query.ilike('name', `%${q.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  const { data, error } = await query.order('name').limit(100);
  if (error) fail(error);
  return (data ?? []) as Brand[];
}

export const adminBrandsQueryOptions = (q: string, archived: boolean) =>
  queryOptions({ queryKey: ['brands', 'admin', q, archived], queryFn: () => getAdminBrands(q, archived) });

export interface AdminClaim extends BrandClaim {
  brand_name: string;
  brand_slug: string;
}

/** Pending and approved claims, with their brand's name. */
export async function getClaims(): Promise<AdminClaim[]> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from('brand_claims')
    .select('id, brand_id, user_id, role_title, message, status, decision_note, created_at')
    .in('status', ['pending', 'approved'])
    .order('created_at')
    .limit(200);
  if (error) fail(error);
  const claims = (data ?? []) as BrandClaim[];
  const ids = [...new Set(claims.map((claim) => claim.brand_id))];
  const brands = ids.length
    ? await supabase.from('brands').select('id, name, slug').in('id', ids)
    : { data: [], error: null };
  if (brands.error) fail(brands.error);
  const byId = new Map((brands.data ?? []).map((b) => [b.id as string, b as { name: string; slug: string }]));
  return claims.map((claim) => ({
    ...claim,
    brand_name: byId.get(claim.brand_id)?.name ?? 'Unknown brand',
    brand_slug: byId.get(claim.brand_id)?.slug ?? '',
  }));
}

export const adminClaimsQueryOptions = () =>
  queryOptions({ queryKey: ['brands', 'claims'], queryFn: getClaims });

export type BrandInput = Omit<
  Brand,
  'id' | 'shown_verification' | 'archived_at' | 'merged_into' | 'is_sample' | 'created_at' | 'updated_at'
>;

type BrandWrite =
  | { kind: 'create'; input: BrandInput }
  | { kind: 'update'; id: string; input: Partial<BrandInput> & { archived_at?: string | null } }
  | { kind: 'merge'; from: string; into: string }
  | { kind: 'claim'; id: string; status: 'approved' | 'rejected' | 'revoked'; note: string | null };

export function useBrandWrite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (write: BrandWrite) => {
      const supabase = await loadSupabase();
      const result =
        write.kind === 'create'
          ? await supabase.from('brands').insert(write.input)
          : write.kind === 'update'
            ? await supabase.from('brands').update(write.input).eq('id', write.id)
            : write.kind === 'merge'
              ? await supabase.rpc('brands_merge', { p_from: write.from, p_into: write.into })
              : await supabase
                  .from('brand_claims')
                  .update({ status: write.status, decision_note: write.note })
                  .eq('id', write.id);
      if (result.error) fail(result.error);
    },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['brands'] }),
  });
}

/** A brand's licences, the primary first (admins edit them; everyone may read them). */
export async function getLicences(brandId: string): Promise<BrandLicence[]> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from('brand_licences')
    .select(LICENCE_COLUMNS)
    .eq('brand_id', brandId)
    .order('is_primary', { ascending: false })
    .order('created_at')
    .order('id');
  if (error) fail(error);
  return (data ?? []) as BrandLicence[];
}

const LICENCE_COLUMNS =
  'id, number, state, type, expires_on, verification, shown_verification, verified_at, verification_note, is_primary';

export const licencesQueryOptions = (brandId: string) =>
  queryOptions({ queryKey: ['brands', 'licences', brandId], queryFn: () => getLicences(brandId) });

export type LicenceInput = Omit<BrandLicence, 'id' | 'shown_verification'>;

type LicenceWrite =
  | { kind: 'add'; brandId: string; input: LicenceInput }
  | { kind: 'edit'; id: string; input: Partial<LicenceInput> }
  | { kind: 'remove'; id: string };

/** Add, edit (verify, set expiry, promote) or remove a licence; audited by the table's trigger. */
export function useLicenceWrite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (write: LicenceWrite) => {
      const supabase = await loadSupabase();
      const result =
        write.kind === 'add'
          ? await supabase.from('brand_licences').insert({ brand_id: write.brandId, ...write.input })
          : write.kind === 'edit'
            ? await supabase.from('brand_licences').update(write.input).eq('id', write.id).select('id')
            : await supabase.from('brand_licences').delete().eq('id', write.id).select('id');
      if (result.error) fail(result.error);
      if (write.kind !== 'add' && (result.data ?? []).length === 0)
        fail({ code: 'PT404', message: 'This licence no longer exists.' });
    },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['brands'] }),
  });
}
