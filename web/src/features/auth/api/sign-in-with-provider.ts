import { loadSupabase } from '#web/lib/supabase.ts';

/**
 * Product §auth-calls: OAuth sign-in with the social provider, redirectTo the site root. supabase-js sends
 * the browser to /auth/v1/authorize; the provider sends it back with the session in the fragment.
 */
export async function signInWithProvider(provider: string): Promise<void> {
  const supabase = await loadSupabase();
  const { error } = await supabase.auth.signInWithOAuth({
    // The provider is whichever the server is configured with (decision 017), not only those
    // supabase-js's type lists.
    provider: provider as 'google',
    options: { redirectTo: `${window.location.origin}/` },
  });
  if (error) throw error;
}
