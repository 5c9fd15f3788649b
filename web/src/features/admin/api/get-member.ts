import { queryOptions } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import { type AdminMember, parseAdminMember } from '../members.ts';
import { MEMBER_COLUMNS } from './get-members.ts';

/** One member, or null when there is none with that id. */
export async function getMember(id: string): Promise<AdminMember | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from('admin_members')
    .select(MEMBER_COLUMNS)
    .eq('id', id)
    .maybeSingle();
  if (error) throw error;
  return data ? parseAdminMember(data) : null;
}

export const memberQueryOptions = (id: string) =>
  queryOptions({ queryKey: ['admin', 'member', { id }], queryFn: () => getMember(id) });
