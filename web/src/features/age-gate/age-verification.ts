/**
 * The age verification cookie. Its name is quoted in the cookie policy
 * (app/routes/cookie-policy.tsx); change both together.
 */
export const AGE_COOKIE_NAME = 'hg_age_verified';
export const AGE_COOKIE_MAX_AGE_SECONDS = 60 * 60 * 24 * 365;

let verified: boolean | undefined;

/**
 * Whether this browser has answered the gate. Read once per page: `document.cookie` is a round trip
 * to the browser's cookie store, and React asks again on every render of the gate's host. The answer
 * given on this page is kept by `rememberAgeVerified`.
 */
export function isAgeVerified(): boolean {
  verified ??= document.cookie.split(';').some((part) => part.trim() === `${AGE_COOKIE_NAME}=1`);
  return verified;
}

export function rememberAgeVerified(): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: a plain first-party cookie; Cookie Store API is not in every browser.
  document.cookie = `${AGE_COOKIE_NAME}=1; Path=/; Max-Age=${AGE_COOKIE_MAX_AGE_SECONDS}; SameSite=Lax${secure}`;
  verified = true;
}

/** Pages a visitor of any age may read (what they agree to), so the gate never covers them. */
export const UNGATED_PATHS: readonly string[] = ['/privacy-policy', '/terms-of-service', '/cookie-policy'];
