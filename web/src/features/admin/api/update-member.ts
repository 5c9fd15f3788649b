import { useMutation, useQueryClient } from '@tanstack/react-query';
import { asUserFacing } from '#web/lib/server-message.ts';
import { loadSupabase } from '#web/lib/supabase.ts';

export type MemberChange =
  | { id: string; kind: 'admin'; value: boolean }
  | { id: string; kind: 'suspended'; value: boolean };

/** public.admin_set_admin_role / public.admin_set_suspended (admins only; checked in the database). */
export async function changeMember(change: MemberChange): Promise<void> {
  const supabase = await loadSupabase();
  const { error } =
    change.kind === 'admin'
      ? await supabase.rpc('admin_set_admin_role', { member_id: change.id, make_admin: change.value })
      : await supabase.rpc('admin_set_suspended', { member_id: change.id, suspend: change.value });
  if (error) throw asUserFacing(error);
}

export function useChangeMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeMember,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
}
