import { randomUUID } from 'node:crypto';
import type { TOTP } from 'otpauth';
import { onFirstUse } from '../lazy.ts';
import { audit } from './audit.ts';
import type { AuthDeps, RequestMeta } from './auth.ts';
import {
  addAmrClaim,
  deleteChallenge,
  deleteFactor,
  downgradeSessionsOfFactor,
  factorCounts,
  findChallenge,
  findFactor,
  findSession,
  findUserById,
  insertChallenge,
  insertFactor,
  markFactorVerified,
  type SessionRow,
  setSessionAal,
  type UserRow,
} from './db.ts';
import { authErrors } from './errors.ts';
import { isUuid } from './input.ts';
import { sessionJson } from './serialize.ts';
import { reissueSession } from './sessions.ts';
import { toEpochSeconds } from './time.ts';

/** Loaded with the first MFA request, not at start-up (decision 086). */
const otpauth = onFirstUse(() => import('otpauth'));
const qrcode = onFirstUse(async () => (await import('qrcode')).default);

/**
 * Multi-factor authentication with TOTP (RFC 6238: SHA-1, 6 digits, 30 s, one step of clock skew),
 * as GoTrue's mfa.go: enroll → challenge → verify raises the session to aal2. A code is accepted once
 * per factor (the last accepted time step is remembered), so an observed code cannot be replayed.
 */

type Json = Record<string, unknown>;

const PERIOD = 30;

export interface MfaAuth {
  user: UserRow;
  session: SessionRow;
}

async function totpFor(secret: string, issuer: string, label: string): Promise<TOTP> {
  const { Secret, TOTP } = await otpauth();
  return new TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD,
    secret: Secret.fromBase32(secret),
  });
}

export async function enroll(
  deps: AuthDeps,
  auth: MfaAuth,
  input: { factorType: string; friendlyName: string; issuer: string; phone: string },
  meta: RequestMeta,
): Promise<Json> {
  if (input.factorType === 'phone') throw authErrors.phoneMfaUnavailable();
  if (input.factorType === 'webauthn') throw authErrors.webauthnMfaUnavailable();
  if (input.factorType !== 'totp') throw authErrors.factorTypeInvalid();
  const issuer = input.issuer || new URL(deps.config.siteUrl).hostname;
  const { Secret } = await otpauth();
  const secret = new Secret({ size: 20 }).base32;
  const label = auth.user.email || auth.user.id;
  const uri = (await totpFor(secret, issuer, label)).toString();
  const qrCode = await (await qrcode()).toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  const id = randomUUID();

  await deps.app.db.transaction(async (tx) => {
    const counts = await factorCounts(tx, auth.user.id);
    if (counts.verified >= deps.config.auth.mfaMaxEnrolledFactors) throw authErrors.tooManyFactors();
    if (counts.total >= deps.config.auth.mfaMaxEnrolledFactors * 2) throw authErrors.tooManyFactors();
    if (counts.verified > 0 && auth.session.aal !== 'aal2') {
      throw authErrors.insufficientAal('AAL2 required to enroll a new factor');
    }
    try {
      await insertFactor(tx, {
        id,
        userId: auth.user.id,
        friendlyName: input.friendlyName,
        type: 'totp',
        secret,
      });
    } catch (error) {
      if ((error as { code?: string }).code === '23505')
        throw authErrors.factorNameConflict(input.friendlyName);
      throw error;
    }
    await audit(tx, meta, auth.user, 'factor_in_progress', { factor_id: id, factor_type: 'totp' });
  });
  return { id, type: 'totp', friendly_name: input.friendlyName, totp: { qr_code: qrCode, secret, uri } };
}

function factorIdOrThrow(factorId: string): string {
  if (!isUuid(factorId)) throw authErrors.factorNotFound();
  return factorId.toLowerCase();
}

export async function challenge(
  deps: AuthDeps,
  auth: MfaAuth,
  factorId: string,
  meta: RequestMeta,
): Promise<Json> {
  const id = factorIdOrThrow(factorId);
  await deps.limits.perIp('verify', meta.ip);
  return deps.app.db.transaction(async (tx) => {
    const factor = await findFactor(tx, auth.user.id, id);
    if (!factor) throw authErrors.factorNotFound();
    const challengeId = randomUUID();
    const createdAt = await insertChallenge(tx, challengeId, factor.id, meta.ip);
    await audit(tx, meta, auth.user, 'challenge_created', {
      factor_id: factor.id,
      challenge_id: challengeId,
    });
    return {
      id: challengeId,
      type: factor.factor_type,
      expires_at: toEpochSeconds(createdAt) + deps.config.auth.mfaChallengeExpiry,
    };
  });
}

/** Normalises IPv4-mapped IPv6 addresses so a challenge and its answer compare equal. */
function sameAddress(a: string, b: string): boolean {
  const plain = (value: string) => value.replace(/^::ffff:/i, '').toLowerCase();
  return plain(a) === plain(b);
}

export async function verifyFactor(
  deps: AuthDeps,
  auth: MfaAuth,
  factorId: string,
  input: { challengeId: string; code: string },
  meta: RequestMeta,
): Promise<Json> {
  const id = factorIdOrThrow(factorId);
  await deps.limits.perIp('verify', meta.ip);
  if (!isUuid(input.challengeId)) throw authErrors.challengeNotFound();
  const outcome = await deps.app.db.transaction(async (tx) => {
    const factor = await findFactor(tx, auth.user.id, id, true);
    if (!factor) throw authErrors.factorNotFound();
    const found = await findChallenge(tx, factor.id, input.challengeId, deps.config.auth.mfaChallengeExpiry);
    if (!found) throw authErrors.challengeNotFound();
    if (found.verified_at !== null || !sameAddress(found.ip_address, meta.ip))
      throw authErrors.challengeIpMismatch();
    if (found.expired) {
      await deleteChallenge(tx, found.id);
      return { error: authErrors.challengeExpired(found.id) };
    }
    const totp = await totpFor(factor.secret ?? '', '', auth.user.email ?? '');
    const delta = /^\d{6}$/.test(input.code) ? totp.validate({ token: input.code, window: 1 }) : null;
    const step = delta === null ? null : totp.counter() + delta;
    const lastStep = factor.last_totp_step === null ? -1 : Number(factor.last_totp_step);
    if (step === null || step <= lastStep) {
      await audit(tx, meta, auth.user, 'verification_attempted', { factor_id: factor.id, result: 'failed' });
      return { error: authErrors.totpInvalid() };
    }
    await markFactorVerified(tx, factor.id, step);
    await deleteChallenge(tx, found.id);
    await addAmrClaim(tx, auth.session.id, 'totp');
    await setSessionAal(tx, auth.session.id, 'aal2', factor.id);
    await audit(tx, meta, auth.user, 'verification_attempted', { factor_id: factor.id, result: 'verified' });
    const user = (await findUserById(tx, auth.user.id)) as UserRow;
    const tokens = await reissueSession(tx, deps, user, auth.session.id, meta);
    return { body: sessionJson(tokens, user) };
  });
  // A failed attempt is recorded (committed) before it is answered.
  if ('error' in outcome) throw outcome.error;
  return outcome.body;
}

export async function unenroll(
  deps: AuthDeps,
  auth: MfaAuth,
  factorId: string,
  meta: RequestMeta,
): Promise<Json> {
  const id = factorIdOrThrow(factorId);
  return deps.app.db.transaction(async (tx) => {
    const factor = await findFactor(tx, auth.user.id, id, true);
    if (!factor) throw authErrors.factorNotFound();
    const session = await findSession(tx, auth.session.id);
    if (factor.status === 'verified' && session?.aal !== 'aal2') {
      throw authErrors.insufficientAal('AAL2 required to unenroll verified factor');
    }
    await downgradeSessionsOfFactor(tx, factor.id);
    await deleteFactor(tx, auth.user.id, factor.id);
    await audit(tx, meta, auth.user, 'factor_unenrolled', { factor_id: factor.id });
    return { id: factor.id };
  });
}
