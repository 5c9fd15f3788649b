import { useMutation, useQueryClient } from '@tanstack/react-query';
import { asUserFacing } from '#web/lib/server-message.ts';
import { loadSupabase } from '#web/lib/supabase.ts';

export type MemberChange =
  | { id: string; kind: 'admin'; value: boolean }
  | { id: string; kind: 'suspended'; value: boolean }
  | { id: string; kind: 'grant-subscription'; months: number }
  | { id: string; kind: 'revoke-subscription' }
  /** A trial of `hours` from now; 0 ends the running one. */
  | { id: string; kind: 'trial'; hours: number };

/** A change without the member's id (each kind keeps its own fields). */
export type MemberChangeRequest = MemberChange extends infer C
  ? C extends { id: string }
    ? Omit<C, 'id'>
    : never
  : never;

/**
 * public.admin_set_admin_role / admin_set_suspended / admin_grant_subscription /
 * admin_revoke_subscription / admin_set_trial (admins only, audited; checked in the database).
 */
export async function changeMember(change: MemberChange): Promise<void> {
  const supabase = await loadSupabase();
  const { error } = await (() => {
    switch (change.kind) {
      case 'admin':
        return supabase.rpc('admin_set_admin_role', { member_id: change.id, make_admin: change.value });
      case 'suspended':
        return supabase.rpc('admin_set_suspended', { member_id: change.id, suspend: change.value });
      case 'grant-subscription':
        return supabase.rpc('admin_grant_subscription', { member_id: change.id, months: change.months });
      case 'revoke-subscription':
        return supabase.rpc('admin_revoke_subscription', { member_id: change.id });
      case 'trial':
        return supabase.rpc('admin_set_trial', { member_id: change.id, hours: change.hours });
    }
  })();
  if (error) throw asUserFacing(error);
}

export function useChangeMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeMember,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
}
