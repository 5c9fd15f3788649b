import { loadSupabase } from '#web/lib/supabase.ts';

/** Product §table-calls user_roles: whether the member holds the admin role (no row: not an admin). */
export async function getIsAdmin(userId: string): Promise<boolean> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from('user_roles')
    .select('role')
    .eq('user_id', userId)
    .eq('role', 'admin')
    .maybeSingle();
  if (error) throw error;
  return data !== null;
}
