import { loadSupabase } from '#web/lib/supabase.ts';

/** Product §auth-calls: reset password for an email, with redirectTo /auth?tab=reset-confirm. */
export async function requestPasswordReset(email: string): Promise<void> {
  const supabase = await loadSupabase();
  const { error } = await supabase.auth.resetPasswordForEmail(email.trim(), {
    redirectTo: `${window.location.origin}/auth?tab=reset-confirm`,
  });
  if (error) throw error;
}
