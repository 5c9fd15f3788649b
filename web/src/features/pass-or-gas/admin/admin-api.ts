import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import { fileExtension, uploadPublicFile } from '#web/lib/upload-with-progress.ts';
import type { Category, StrainType } from '../ranking.ts';

export interface AdminProduct {
  id: string;
  name: string;
  brand_id: string | null;
  category: Category;
  strain_type: StrainType;
  thc_min: number | null;
  thc_max: number | null;
  cbd_min: number | null;
  cbd_max: number | null;
  image_url: string | null;
  description: string;
  archived_at: string | null;
  is_sample: boolean;
  created_at: string;
}

export type ProductInput = Omit<AdminProduct, 'id' | 'archived_at' | 'is_sample' | 'created_at'>;

const COLUMNS =
  'id, name, brand_id, category, strain_type, thc_min, thc_max, cbd_min, cbd_max, image_url, description, archived_at, is_sample, created_at';

export async function getAdminProducts(): Promise<AdminProduct[]> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from('products')
    .select(COLUMNS)
    .order('created_at', { ascending: false })
    .limit(200);
  if (error) throw error;
  return (data ?? []) as AdminProduct[];
}

export const adminProductsQueryOptions = () =>
  queryOptions({ queryKey: ['pass-or-gas', 'admin-products', {}], queryFn: getAdminProducts });

export interface BrandChoice {
  id: string;
  name: string;
}

/**
 * Every brand an admin can put a product under, by name: the public brand list (brandsQueryOptions)
 * names only brands that already have products, so a new brand could never get its first one.
 */
export async function getBrandChoices(): Promise<BrandChoice[]> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase.from('brands').select('id, name').order('name').limit(2000);
  if (error) throw error;
  return (data ?? []) as BrandChoice[];
}

export const brandChoicesQueryOptions = () =>
  queryOptions({ queryKey: ['pass-or-gas', 'admin-brand-choices', {}], queryFn: getBrandChoices });

type ProductWrite =
  | { kind: 'create'; input: ProductInput }
  | { kind: 'update'; id: string; input: Partial<ProductInput> & { archived_at?: string | null } };

export function useProductWrite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (write: ProductWrite) => {
      const supabase = await loadSupabase();
      const result =
        write.kind === 'create'
          ? await supabase.from('products').insert(write.input)
          : await supabase.from('products').update(write.input).eq('id', write.id);
      if (result.error) throw result.error;
    },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['pass-or-gas'] }),
  });
}

/** Uploads a product image to the product-images bucket with progress; resolves to its public URL. */
export function uploadProductImage(file: File, onProgress: (fraction: number) => void): Promise<string> {
  return uploadPublicFile(
    'product-images',
    `products/${crypto.randomUUID()}.${fileExtension(file.name)}`,
    file,
    onProgress,
  );
}

export interface ModerationItem {
  id: string;
  kind: 'comment_report' | 'held_votes';
  product_id: string;
  comment_id: string | null;
  reports: number;
  votes: number;
  status: 'open' | 'resolved';
  resolution: string | null;
  created_at: string;
  updated_at: string;
  product: { name: string } | null;
  comment: { content: string; user_id: string } | null;
  /** Who wrote the reported comment: admins read every profile (issue 34). */
  author: { full_name: string | null; username: string | null } | null;
}

export async function getModerationItems(status: 'open' | 'resolved'): Promise<ModerationItem[]> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from('moderation_items')
    .select(
      'id, kind, product_id, comment_id, reports, votes, status, resolution, created_at, updated_at, product:products(name), comment:product_comments(content, user_id)',
    )
    .eq('status', status)
    .order('updated_at', { ascending: false })
    .limit(100);
  if (error) throw error;
  const items = (data ?? []) as unknown as Omit<ModerationItem, 'author'>[];
  const authorIds = [...new Set(items.flatMap((item) => (item.comment ? [item.comment.user_id] : [])))];
  const authors = new Map<string, ModerationItem['author']>();
  if (authorIds.length > 0) {
    const { data: profiles, error: profilesError } = await supabase
      .from('profiles')
      .select('user_id, full_name, username')
      .in('user_id', authorIds);
    if (profilesError) throw profilesError;
    for (const profile of (profiles ?? []) as {
      user_id: string;
      full_name: string | null;
      username: string | null;
    }[]) {
      authors.set(profile.user_id, { full_name: profile.full_name, username: profile.username });
    }
  }
  return items.map((item) => ({
    ...item,
    author: item.comment ? (authors.get(item.comment.user_id) ?? null) : null,
  }));
}

/** The comment's author as the queue names them: "Full Name (@username)", or what there is of it. */
export function authorLabel(author: ModerationItem['author']): string {
  if (!author) return 'a deleted account';
  const name = author.full_name?.trim();
  if (name && author.username) return `${name} (@${author.username})`;
  return name || (author.username ? `@${author.username}` : 'a member without a name');
}

export const moderationQueryOptions = (status: 'open' | 'resolved') =>
  queryOptions({
    queryKey: ['pass-or-gas', 'moderation', { status }],
    queryFn: () => getModerationItems(status),
  });

export function useModerate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { item: ModerationItem; action: string }) => {
      const supabase = await loadSupabase();
      const fn = input.item.kind === 'comment_report' ? 'moderate_comment' : 'moderate_held_votes';
      const { error } = await supabase.rpc(fn, { item_id: input.item.id, action: input.action });
      if (error) throw error;
    },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['pass-or-gas'] }),
  });
}
