import { loadSupabase } from '#web/lib/supabase.ts';

/** Product §auth-calls: update the user with a new password (the recovery link's session is signed in). */
export async function updatePassword(password: string): Promise<void> {
  const supabase = await loadSupabase();
  const { error } = await supabase.auth.updateUser({ password });
  if (error) throw error;
}
