import { loadSupabase } from '#web/lib/supabase.ts';
import { usePasskeyMutation } from './get-passkeys.ts';

/** Removes one of the member's passkeys. */
export async function removePasskey(passkeyId: string): Promise<void> {
  const supabase = await loadSupabase();
  const { error } = await supabase.auth.passkey.delete({ passkeyId });
  if (error) throw error;
}

export function useRemovePasskey(userId: string) {
  return usePasskeyMutation(userId, removePasskey);
}
