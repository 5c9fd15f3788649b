import { loadSupabase } from '#web/lib/supabase.ts';

export async function signInWithPassword(input: { email: string; password: string }): Promise<void> {
  const supabase = await loadSupabase();
  const { error } = await supabase.auth.signInWithPassword({
    email: input.email.trim(),
    password: input.password,
  });
  if (error) throw error;
}
