import { loadSupabase } from '#web/lib/supabase.ts';

/** Product §auth-calls: update the user with a new password (the recovery link's session is signed in). */
export async function updatePassword(password: string): Promise<void> {
  const supabase = await loadSupabase();
  const { error } = await supabase.auth.updateUser({ password });
  if (error) throw error;
}

/** Whether a session is there to update (a reset link opened again after use leaves none). */
export async function hasSession(): Promise<boolean> {
  const supabase = await loadSupabase();
  const { data } = await supabase.auth.getSession();
  return data.session !== null;
}
