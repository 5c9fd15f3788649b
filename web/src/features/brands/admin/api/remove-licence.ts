import { loadSupabase } from '#web/lib/supabase.ts';
import { throwBrandError, useBrandMutation } from '../../api/brand-call.ts';

/** No row changed: another admin removed the licence meanwhile. */
export function throwIfGone(rows: unknown[] | null): void {
  if ((rows ?? []).length === 0)
    throwBrandError({ code: 'PT404', message: 'This licence no longer exists.' });
}

/** Removes a licence from the brand's page; the audit log keeps the record. */
export async function removeLicence(id: string): Promise<void> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase.from('brand_licences').delete().eq('id', id).select('id');
  if (error) throwBrandError(error);
  throwIfGone(data);
}

export const useRemoveLicence = () => useBrandMutation(removeLicence);
