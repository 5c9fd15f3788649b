import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';

/** One of the member's passkeys, as `GET /auth/v1/passkeys` lists it (decision 149). */
export interface Passkey {
  id: string;
  friendly_name?: string;
  created_at: string;
  last_used_at?: string;
}

/** The member's passkeys (asked only when the server offers passkeys: the page decides). */
export async function listPasskeys(): Promise<Passkey[]> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase.auth.passkey.list();
  if (error) throw error;
  return (data ?? []) as unknown as Passkey[];
}

export const passkeysQueryOptions = (userId: string) =>
  queryOptions({ queryKey: ['passkeys', userId], queryFn: listPasskeys });

/** Adds a passkey: the browser's WebAuthn ceremony (supabase-js registerPasskey), then the list again. */
export function useAddPasskey(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const supabase = await loadSupabase();
      const { error } = await supabase.auth.registerPasskey();
      if (error) throw error;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: passkeysQueryOptions(userId).queryKey }),
  });
}

export function useRemovePasskey(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (passkeyId: string) => {
      const supabase = await loadSupabase();
      const { error } = await supabase.auth.passkey.delete({ passkeyId });
      if (error) throw error;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: passkeysQueryOptions(userId).queryKey }),
  });
}
