import { loadSupabase } from '#web/lib/supabase.ts';

/**
 * Product §auth-calls: sign up with email, password and options — emailRedirectTo the email-confirmed page on
 * the site's origin, data.full_name. With confirmation on (the default), no session is returned.
 */
export async function signUp(input: { fullName: string; email: string; password: string }): Promise<void> {
  const supabase = await loadSupabase();
  const { error } = await supabase.auth.signUp({
    email: input.email.trim(),
    password: input.password,
    options: {
      emailRedirectTo: `${window.location.origin}/email-confirmed`,
      data: { full_name: input.fullName.trim() },
    },
  });
  if (error) throw error;
}
