import { createHmac, randomBytes } from 'node:crypto';
import type { AuthDeps } from './auth.ts';
import { keyedHash, safeEqual } from './crypto.ts';
import { clearThrottles, readThrottle, recordThrottleFailure } from './db.ts';
import { authErrors } from './errors.ts';

/**
 * The per-account sign-in throttle with device tokens (OWASP "Slow Down Online Guessing Attacks with
 * Device Cookies"; ASVS 6.3; decision 095).
 *
 * Failed password sign-ins are counted per account, whichever address they come from, so a guesser
 * spread over many addresses is slowed down on each account: after SIGN_IN_FAILURES_BEFORE_DELAY
 * failures every further attempt waits, SIGN_IN_DELAY_SECONDS doubling up to SIGN_IN_MAX_DELAY_SECONDS.
 * A browser that signed in to the account before holds a device token for it (an HttpOnly cookie
 * scoped to /auth/v1): its attempts are counted against that device alone, so its owner still signs in
 * with the right password while strangers wait — and the per-address limit does not apply to it
 * either, so one office address or proxy no longer locks everyone behind it out. While a key is
 * locked the password is not even checked, and the refused attempt is not counted: waiting is enough.
 */

export const DEVICE_COOKIE = 'hg-device';
/** How long a device stays known after its last successful sign-in. */
export const DEVICE_TOKEN_MAX_AGE_SECONDS = 180 * 24 * 3600;
/** Tokens one browser keeps (one per account signed in from it), newest first. */
const DEVICE_TOKENS_KEPT = 5;
/** Failures older than this no longer count. */
const FORGET_FAILURES_AFTER_SECONDS = 24 * 3600;

/** The keyed hash naming an account's throttle rows: the same for an address with or without an account. */
export function accountKey(secret: string, email: string): string {
  return keyedHash(secret, 'sign-in-account', email.toLowerCase());
}

function deviceSignature(secret: string, account: string, id: string, issuedAt: number): string {
  return createHmac('sha256', secret)
    .update(`sign-in-device\u0000${account}\u0000${id}\u0000${issuedAt}`, 'utf8')
    .digest('base64url');
}

/** A device token: `<random id>.<issued at, epoch seconds>.<HMAC binding both to the account>`. */
export function issueDeviceToken(secret: string, account: string, now = Date.now()): string {
  const id = randomBytes(16).toString('base64url');
  const issuedAt = Math.floor(now / 1000);
  return `${id}.${issuedAt}.${deviceSignature(secret, account, id, issuedAt)}`;
}

/** The id of the first of `tokens` that was issued for this account and has not expired. */
export function knownDevice(
  secret: string,
  account: string,
  tokens: readonly string[],
  now = Date.now(),
): string | undefined {
  for (const token of tokens) {
    const [id, issued, signature, extra] = token.split('.');
    if (!id || !issued || !signature || extra !== undefined || !/^\d{1,12}$/.test(issued)) continue;
    const issuedAt = Number(issued);
    const age = now / 1000 - issuedAt;
    if (age < -300 || age > DEVICE_TOKEN_MAX_AGE_SECONDS) continue;
    if (safeEqual(signature, deviceSignature(secret, account, id, issuedAt))) return id;
  }
  return undefined;
}

/** The device tokens a request carries in its cookie (at most a handful, each of bounded length). */
export function deviceTokensOf(cookieHeader: string | undefined): string[] {
  if (!cookieHeader) return [];
  for (const part of cookieHeader.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name !== DEVICE_COOKIE) continue;
    return rest
      .join('=')
      .split('~')
      .filter((token) => token.length > 0 && token.length <= 128 && /^[A-Za-z0-9_.-]+$/.test(token))
      .slice(0, DEVICE_TOKENS_KEPT);
  }
  return [];
}

/** The cookie after a successful sign-in: the new token first, then the others the browser had. */
export function deviceCookie(token: string, previous: readonly string[], secure: boolean): string {
  const tokens = [token, ...previous.filter((other) => other !== token)].slice(0, DEVICE_TOKENS_KEPT);
  return [
    `${DEVICE_COOKIE}=${tokens.join('~')}`,
    'Path=/auth/v1',
    `Max-Age=${DEVICE_TOKEN_MAX_AGE_SECONDS}`,
    'HttpOnly',
    'SameSite=Strict',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

export interface SignInAttempt {
  /** The account's throttle key. */
  account: string;
  /** The key this attempt is counted under: the known device's, else the account's. */
  key: string;
  /** The known device's id, when the request carries a token for this account. */
  device: string | undefined;
}

/**
 * Before the password is checked: which key the attempt counts under, and a 429 while that key is
 * locked (nothing is counted then). Requests from a known device skip the per-address limit.
 */
export async function beginSignIn(
  deps: AuthDeps,
  email: string,
  meta: { ip: string; deviceTokens: readonly string[] },
): Promise<SignInAttempt> {
  const secret = deps.app.keys.jwtSecret;
  const account = accountKey(secret, email);
  const device = knownDevice(secret, account, meta.deviceTokens);
  if (device === undefined) await deps.limits.perIp('signin', meta.ip);
  const key = device === undefined ? `account:${account}` : `device:${device}`;
  const state = await readThrottle(deps.app.db, key);
  if (state && state.locked_for > 0) throw authErrors.signInThrottled(state.locked_for);
  return { account, key, device };
}

/** A wrong password (or no such account): one more failure for the attempt's key. */
export async function signInFailed(deps: AuthDeps, attempt: SignInAttempt): Promise<void> {
  const { freeFailures, delaySeconds, maxDelaySeconds } = deps.config.auth.signInThrottle;
  await recordThrottleFailure(deps.app.db, attempt.key, attempt.account, {
    freeFailures,
    delaySeconds,
    maxDelaySeconds,
    forgetAfterSeconds: FORGET_FAILURES_AFTER_SECONDS,
  });
}

/**
 * The right password: the failures of the key it was counted under are forgotten, and the browser gets
 * a fresh device token. A known device's success leaves the account's own count alone, so its owner
 * signing in does not hand a guesser elsewhere a fresh set of attempts.
 */
export async function signInSucceeded(deps: AuthDeps, attempt: SignInAttempt): Promise<string> {
  await clearThrottles(deps.app.db, [attempt.key]);
  return issueDeviceToken(deps.app.keys.jwtSecret, attempt.account);
}
