import { loadSupabase } from '#web/lib/supabase.ts';
import type { ProductInput } from '../admin-product.ts';
import { useAdminWrite } from './use-admin-write.ts';

/** A new product in the catalogue (admins only: row-level security); the first real one retires the samples. */
export async function createProduct(input: ProductInput): Promise<void> {
  const supabase = await loadSupabase();
  const { error } = await supabase.from('products').insert(input);
  if (error) throw error;
}

export const useCreateProduct = () => useAdminWrite(createProduct);
