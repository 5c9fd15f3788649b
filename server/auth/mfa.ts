import { randomUUID } from 'node:crypto';
import type { TOTP } from 'otpauth';
import type { Queryable } from '../db/driver.ts';
import { ApiError } from '../http/errors.ts';
import { onFirstUse } from '../lazy.ts';
import { audit } from './audit.ts';
import type { AuthDeps, RequestMeta } from './auth.ts';
import {
  addAmrClaim,
  deleteChallenge,
  deleteFactor,
  deleteUnverifiedFactors,
  downgradeSessionsOfFactor,
  type FactorSecretRow,
  factorCounts,
  findChallenge,
  findFactor,
  findSession,
  findUserById,
  insertChallenge,
  insertFactor,
  markFactorVerified,
  type SessionRow,
  saveWebAuthnCredential,
  setSessionAal,
  type UserRow,
  webAuthnCredentialsOfUser,
} from './db.ts';
import { authErrors } from './errors.ts';
import { isUuid } from './input.ts';
import { sessionJson } from './serialize.ts';
import { reissueSession } from './sessions.ts';
import { toEpochSeconds } from './time.ts';

/** Loaded with the first MFA request, not at start-up (decision 086). */
const otpauth = onFirstUse(() => import('otpauth'));
const qrcode = onFirstUse(async () => (await import('qrcode')).default);
const simplewebauthn = onFirstUse(() => import('@simplewebauthn/server'));

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
  if (input.factorType === 'webauthn') return enrollWebAuthn(deps, auth, input.friendlyName, meta);
  if (input.factorType !== 'totp') throw authErrors.factorTypeInvalid();
  const issuer = input.issuer || new URL(deps.config.siteUrl).hostname;
  const { Secret } = await otpauth();
  const secret = new Secret({ size: 20 }).base32;
  const label = auth.user.email || auth.user.id;
  const uri = (await totpFor(secret, issuer, label)).toString();
  const qrCode = await (await qrcode()).toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  const id = randomUUID();

  await deps.app.db.transaction(async (tx) => {
    await insertNewFactor(tx, deps, auth, { id, friendlyName: input.friendlyName, type: 'totp', secret });
    await audit(tx, meta, auth.user, 'factor_in_progress', { factor_id: id, factor_type: 'totp' });
  });
  return { id, type: 'totp', friendly_name: input.friendlyName, totp: { qr_code: qrCode, secret, uri } };
}

/** Checks the factor limits and inserts a new unverified factor (a name taken: GoTrue's conflict). */
async function insertNewFactor(
  tx: Queryable,
  deps: AuthDeps,
  auth: MfaAuth,
  factor: { id: string; friendlyName: string; type: 'totp' | 'webauthn'; secret: string | null },
): Promise<void> {
  const counts = await factorCounts(tx, auth.user.id);
  if (counts.verified >= deps.config.auth.mfaMaxEnrolledFactors) throw authErrors.tooManyFactors();
  if (counts.total >= deps.config.auth.mfaMaxEnrolledFactors * 2) throw authErrors.tooManyFactors();
  if (counts.verified > 0 && auth.session.aal !== 'aal2') {
    throw authErrors.insufficientAal('AAL2 required to enroll a new factor');
  }
  try {
    await insertFactor(tx, { ...factor, userId: auth.user.id });
  } catch (error) {
    if ((error as { code?: string }).code === '23505')
      throw authErrors.factorNameConflict(factor.friendlyName);
    throw error;
  }
}

// ----------------------------------------------------------------------------------------------
// WebAuthn (decision 149): GoTrue's enrolment, challenge and verification shapes, the ceremonies
// checked by @simplewebauthn/server. A factor is enrolled unverified; its first challenge is a
// registration ("create"), verified by the attestation; later ones are assertions ("request").
// ----------------------------------------------------------------------------------------------

interface StoredCredential {
  id: string;
  public_key: string;
  counter: number;
  transports?: string[];
}

/** The relying party: WEBAUTHN_RP_ID / _ORIGINS / _DISPLAY_NAME, or what SITE_URL and SITE_NAME give. */
export function relyingParty(deps: AuthDeps): { id: string; origins: string[]; name: string } {
  const settings = deps.config.auth.webauthn;
  const site = new URL(deps.config.siteUrl);
  return {
    id: settings.rpId ?? site.hostname,
    origins: settings.rpOrigins.length > 0 ? settings.rpOrigins : [site.origin],
    name: settings.rpDisplayName ?? deps.config.siteName,
  };
}

async function enrollWebAuthn(
  deps: AuthDeps,
  auth: MfaAuth,
  friendlyName: string,
  meta: RequestMeta,
): Promise<Json> {
  if (!deps.config.auth.webauthn.enrollEnabled) throw authErrors.webauthnMfaUnavailable();
  const id = randomUUID();
  await deps.app.db.transaction(async (tx) => {
    await insertNewFactor(tx, deps, auth, { id, friendlyName, type: 'webauthn', secret: null });
    await audit(tx, meta, auth.user, 'factor_in_progress', { factor_id: id, factor_type: 'webauthn' });
  });
  return { id, type: 'webauthn', friendly_name: friendlyName };
}

async function webAuthnChallengeOptions(
  tx: Queryable,
  deps: AuthDeps,
  auth: MfaAuth,
  factor: FactorSecretRow,
): Promise<{ type: 'create' | 'request'; options: Json & { challenge: string } }> {
  const { generateAuthenticationOptions, generateRegistrationOptions } = await simplewebauthn();
  const rp = relyingParty(deps);
  if (factor.status !== 'verified') {
    const existing = await webAuthnCredentialsOfUser(tx, auth.user.id);
    const options = await generateRegistrationOptions({
      rpName: rp.name,
      rpID: rp.id,
      userName: auth.user.email || auth.user.id,
      // GoTrue's user handle (User.WebAuthnID): the user id as text.
      userID: new Uint8Array(Buffer.from(auth.user.id, 'utf8')),
      attestationType: 'none',
      excludeCredentials: existing.map((credential) => ({
        id: credential.id,
        transports: credential.transports,
      })),
      authenticatorSelection: { residentKey: 'discouraged', userVerification: 'preferred' },
    });
    return { type: 'create', options: options as unknown as Json & { challenge: string } };
  }
  const credential = factor.web_authn_credential as unknown as StoredCredential;
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    allowCredentials: [{ id: credential.id, transports: credential.transports as never }],
    userVerification: 'preferred',
  });
  return { type: 'request', options: options as unknown as Json & { challenge: string } };
}

async function verifyWebAuthn(
  deps: AuthDeps,
  factor: FactorSecretRow,
  session: Record<string, unknown>,
  input: WebAuthnInput,
): Promise<{ credential: StoredCredential; aaguid: string | null }> {
  const { verifyAuthenticationResponse, verifyRegistrationResponse } = await simplewebauthn();
  const rp = relyingParty(deps);
  const expected = {
    expectedChallenge: String(session.challenge),
    expectedOrigin: rp.origins,
    expectedRPID: rp.id,
    requireUserVerification: false,
  };
  if (input.type !== session.type) throw authErrors.webauthnInvalidResponse();
  try {
    if (input.type === 'create') {
      const result = await verifyRegistrationResponse({ ...expected, response: input.response as never });
      if (!result.verified) throw authErrors.webauthnInvalidResponse();
      const { credential, aaguid } = result.registrationInfo;
      return {
        credential: {
          id: credential.id,
          public_key: Buffer.from(credential.publicKey).toString('base64url'),
          counter: credential.counter,
          ...(credential.transports ? { transports: credential.transports } : {}),
        },
        aaguid: /^[0-9a-f-]{36}$/i.test(aaguid) ? aaguid : null,
      };
    }
    const stored = factor.web_authn_credential as unknown as StoredCredential;
    const result = await verifyAuthenticationResponse({
      ...expected,
      response: input.response as never,
      credential: {
        id: stored.id,
        publicKey: new Uint8Array(Buffer.from(stored.public_key, 'base64url')),
        counter: stored.counter,
        transports: stored.transports as never,
      },
    });
    if (!result.verified) throw authErrors.webauthnInvalidResponse();
    return { credential: { ...stored, counter: result.authenticationInfo.newCounter }, aaguid: null };
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw authErrors.webauthnInvalidResponse();
  }
}

export interface WebAuthnInput {
  type: string;
  response: unknown;
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
    let webauthn: Json | undefined;
    let sessionData: Json | null = null;
    if (factor.factor_type === 'webauthn') {
      if (!deps.config.auth.webauthn.verifyEnabled) throw authErrors.webauthnVerifyDisabled();
      const { type, options } = await webAuthnChallengeOptions(tx, deps, auth, factor);
      webauthn = { type, credential_options: { publicKey: options } };
      sessionData = { type, challenge: options.challenge };
    }
    const challengeId = randomUUID();
    const createdAt = await insertChallenge(tx, challengeId, factor.id, meta.ip, sessionData);
    await audit(tx, meta, auth.user, 'challenge_created', {
      factor_id: factor.id,
      challenge_id: challengeId,
    });
    return {
      id: challengeId,
      type: factor.factor_type,
      expires_at: toEpochSeconds(createdAt) + deps.config.auth.mfaChallengeExpiry,
      ...(webauthn ? { webauthn } : {}),
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
  input: { challengeId: string; code: string; webauthn: WebAuthnInput | undefined },
  meta: RequestMeta,
): Promise<Json> {
  const id = factorIdOrThrow(factorId);
  await deps.limits.perIp('verify', meta.ip);
  if (!isUuid(input.challengeId)) throw authErrors.challengeNotFound();
  const outcome = await deps.app.db.transaction(async (tx) => {
    const factor = await findFactor(tx, auth.user.id, id, true);
    if (!factor) throw authErrors.factorNotFound();
    if (factor.factor_type === 'webauthn') return verifyWebAuthnFactor(tx, deps, auth, factor, input, meta);
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

async function verifyWebAuthnFactor(
  tx: Queryable,
  deps: AuthDeps,
  auth: MfaAuth,
  factor: FactorSecretRow,
  input: { challengeId: string; webauthn: WebAuthnInput | undefined },
  meta: RequestMeta,
): Promise<{ error: Error } | { body: Json }> {
  if (!deps.config.auth.webauthn.verifyEnabled) throw authErrors.webauthnVerifyDisabled();
  const params = input.webauthn;
  if (!params) throw authErrors.validation('WebAuthn config required');
  if (params.type !== 'create' && params.type !== 'request') {
    throw authErrors.validation('WebAuthn type must be create or request');
  }
  if (params.response === undefined || params.response === null) {
    throw authErrors.validation('credential_response required');
  }
  const found = await findChallenge(tx, factor.id, input.challengeId, deps.config.auth.mfaChallengeExpiry);
  if (!found?.web_authn_session_data) throw authErrors.challengeNotFound();
  if (found.verified_at !== null || !sameAddress(found.ip_address, meta.ip))
    throw authErrors.challengeIpMismatch();
  // The challenge is used up whatever the answer (GoTrue destroys it once validated).
  await deleteChallenge(tx, found.id);
  if (found.expired) return { error: authErrors.challengeExpired(found.id) };
  let verified: Awaited<ReturnType<typeof verifyWebAuthn>>;
  try {
    verified = await verifyWebAuthn(deps, factor, found.web_authn_session_data, params);
  } catch (error) {
    await audit(tx, meta, auth.user, 'verification_attempted', { factor_id: factor.id, result: 'failed' });
    return { error: error as Error };
  }
  await saveWebAuthnCredential(
    tx,
    factor.id,
    { ...verified.credential },
    verified.aaguid,
    params.type === 'create',
  );
  await deleteUnverifiedFactors(tx, auth.user.id, 'webauthn');
  await addAmrClaim(tx, auth.session.id, 'mfa/webauthn');
  await setSessionAal(tx, auth.session.id, 'aal2', factor.id);
  await audit(tx, meta, auth.user, 'verification_attempted', {
    factor_id: factor.id,
    challenge_id: found.id,
    factor_type: 'webauthn',
    result: 'verified',
  });
  const user = (await findUserById(tx, auth.user.id)) as UserRow;
  const tokens = await reissueSession(tx, deps, user, auth.session.id, meta);
  return { body: sessionJson(tokens, user) };
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
