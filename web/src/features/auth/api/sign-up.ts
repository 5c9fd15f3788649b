import { signUpAuthClient } from './sign-up-client.ts';

/**
 * Product §auth-calls: sign up with email, password and options — emailRedirectTo the email-confirmed page on
 * the site's origin, data.full_name. With confirmation on (the default), no session is returned. PKCE
 * (decision 165): the link signs in the browser that signed up, and only that one.
 */
export async function signUp(input: { fullName: string; email: string; password: string }): Promise<void> {
  const auth = await signUpAuthClient();
  const { error } = await auth.signUp({
    email: input.email.trim(),
    password: input.password,
    options: {
      emailRedirectTo: `${window.location.origin}/email-confirmed`,
      data: { full_name: input.fullName.trim() },
    },
  });
  if (error) throw error;
}
