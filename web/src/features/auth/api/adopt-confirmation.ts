import { loadSupabase } from '#web/lib/supabase.ts';
import { signUpAuthClient } from './sign-up-client.ts';

/**
 * The confirmation link's PKCE code (decision 165): exchanged with the verifier this browser kept
 * at sign-up, and the session handed to the app's client, which signs the member in. Any other
 * browser has no verifier, so nothing is exchanged and no session exists there: the address is
 * confirmed (the server did that before redirecting) and the page says where to sign in.
 */
export function adoptConfirmationCode(
  code: string,
  flowId: string | null,
): Promise<'signed-in' | 'elsewhere'> {
  // Once per code: the page may mount twice (a development double render), and the exchange uses up
  // both the code and the verifier.
  let result = exchanges.get(code);
  if (!result) {
    result = exchange(code, flowId);
    exchanges.set(code, result);
  }
  return result;
}

const exchanges = new Map<string, Promise<'signed-in' | 'elsewhere'>>();

async function exchange(code: string, flowId: string | null): Promise<'signed-in' | 'elsewhere'> {
  const auth = await signUpAuthClient();
  const { data, error } = await auth.exchangeCodeForSession(code, flowId ? { flowId } : undefined);
  if (error || !data.session) return 'elsewhere';
  const supabase = await loadSupabase();
  const { error: adoptError } = await supabase.auth.setSession({
    access_token: data.session.access_token,
    refresh_token: data.session.refresh_token,
  });
  return adoptError ? 'elsewhere' : 'signed-in';
}
