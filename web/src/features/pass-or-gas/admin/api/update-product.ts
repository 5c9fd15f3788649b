import { loadSupabase } from '#web/lib/supabase.ts';
import type { ProductInput } from '../admin-product.ts';
import { useAdminWrite } from './use-admin-write.ts';

export interface ProductUpdate {
  id: string;
  /** The changed columns; `archived_at` archives (a time) or restores (null). */
  input: Partial<ProductInput> & { archived_at?: string | null };
}

/** A product's changes, its archiving or its restoring (admins only: row-level security). */
export async function updateProduct({ id, input }: ProductUpdate): Promise<void> {
  const supabase = await loadSupabase();
  const { error } = await supabase.from('products').update(input).eq('id', id);
  if (error) throw error;
}

export const useUpdateProduct = () => useAdminWrite(updateProduct);
