/**
 * The 21+ gate lives outside the app (decision 161): its dialog is in index.html and web/public/age-gate.js
 * opens it before the first paint; the server leaves both out for a browser carrying the cookie
 * (server/http/age-gate.ts). The app only tells the gate when the address changes (use-age-gate.ts).
 *
 * The cookie's name is quoted in the cookie policy (app/routes/cookie-policy.tsx). It and the legal
 * paths are repeated in age-gate.js, and the name in the server (server/http/age-gate.ts); tests keep
 * them equal (app/age-gate-markup.test.ts, server/http/age-gate.test.ts).
 */
export const AGE_COOKIE_NAME = 'hg_age_verified';

/** Pages a visitor of any age may read (what they agree to), so the gate never covers them. */
export const UNGATED_PATHS: readonly string[] = [
  '/privacy-policy',
  '/terms-of-service',
  '/cookie-policy',
  '/personal-data',
  // What "reviewed" means (decision 201): the people a report names read it without an account.
  '/how-reports-are-reviewed',
];
