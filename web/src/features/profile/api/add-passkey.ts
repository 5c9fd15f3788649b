import { loadSupabase } from '#web/lib/supabase.ts';
import { usePasskeyMutation } from './get-passkeys.ts';

/** Adds a passkey: the browser's WebAuthn ceremony (supabase-js registerPasskey). */
export async function addPasskey(): Promise<void> {
  const supabase = await loadSupabase();
  const { error } = await supabase.auth.registerPasskey();
  if (error) throw error;
}

export function useAddPasskey(userId: string) {
  return usePasskeyMutation(userId, addPasskey);
}
