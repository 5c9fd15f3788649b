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

/** A change to the member's passkeys; afterwards, whether it worked or not, the list is read again. */
export function usePasskeyMutation<Input = void>(userId: string, change: (input: Input) => Promise<void>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSettled: () => queryClient.invalidateQueries({ queryKey: passkeysQueryOptions(userId).queryKey }),
  });
}
