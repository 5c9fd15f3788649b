import { loadSupabase } from '#web/lib/supabase.ts';
import { deriveUsername, NAME_MAX_LENGTH, NAME_MIN_LENGTH, usernameWithSuffix } from '../username.ts';

interface ProfileOwner {
  id: string;
  email: string;
  /** user_metadata.full_name */
  fullName: unknown;
}

/** A metadata name the profile can hold (2–100 characters, no markup), else none. */
function usableName(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const name = value.trim();
  if (name.length < NAME_MIN_LENGTH || name.length > NAME_MAX_LENGTH || /[<>]/.test(name)) return null;
  return name;
}

/**
 * Product §profile-creation: when the member has no profile row (not-found code PGRST116), one is
 * created from the account email, the metadata full name and a username derived from the email's
 * local part. The server's sign-up trigger normally made it already (decision 032); this covers
 * accounts whose profile is missing for any other reason.
 */
export async function ensureProfile(owner: ProfileOwner): Promise<'exists' | 'created'> {
  const supabase = await loadSupabase();
  // maybeSingle: no row is an answer (null), not PostgREST's not-found error (PGRST116, HTTP 406),
  // which browsers would log as a failed request on every sign-in of such an account.
  const found = await supabase.from('profiles').select('user_id').eq('user_id', owner.id).maybeSingle();
  if (found.error && found.error.code !== 'PGRST116') throw found.error;
  if (found.data) return 'exists';

  const username = deriveUsername(owner.email);
  const row = { user_id: owner.id, email: owner.email || null, full_name: usableName(owner.fullName) };
  for (const candidate of [username, usernameWithSuffix(username), null]) {
    const { error } = await supabase.from('profiles').insert({ ...row, username: candidate });
    if (!error) return 'created';
    if (error.code !== '23505') throw error;
    // Another tab created it meanwhile.
    if (error.message.includes('profiles_pkey')) return 'exists';
    // Otherwise the username is taken: try the next candidate.
  }
  return 'exists';
}
