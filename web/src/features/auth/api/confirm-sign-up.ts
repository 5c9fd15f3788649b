import { loadSupabase } from '#web/lib/supabase.ts';
import { signUpAuthClient } from './sign-up-client.ts';

/**
 * The confirmation mail's code, entered on the site: verifyOtp type 'signup' (GoTrue's /verify), which
 * confirms the address and signs the new member in.
 */
export async function confirmSignUpCode(email: string, code: string): Promise<void> {
  const supabase = await loadSupabase();
  const { error } = await supabase.auth.verifyOtp({ email: email.trim(), token: code, type: 'signup' });
  if (error) throw error;
}

/**
 * Sends the confirmation mail again (GoTrue's /resend; the server limits how often), as a PKCE link like
 * the first one (decision 165).
 */
export async function resendSignUpMail(email: string): Promise<void> {
  const auth = await signUpAuthClient();
  const { error } = await auth.resend({
    type: 'signup',
    email: email.trim(),
    options: { emailRedirectTo: `${window.location.origin}/email-confirmed` },
  });
  if (error) throw error;
}
