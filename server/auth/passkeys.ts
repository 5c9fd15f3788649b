import { ApiError } from '../http/errors.ts';
import { onFirstUse } from '../lazy.ts';
import { audit } from './audit.ts';
import type { AuthDeps, RequestMeta } from './auth.ts';
import {
  deletePasskey,
  findPasskey,
  findPasskeyByCredentialId,
  findUserById,
  insertPasskey,
  insertWebAuthnChallenge,
  type PasskeyRow,
  passkeysOfUser,
  passkeyUsed,
  renamePasskey,
  type SessionRow,
  takeWebAuthnChallenge,
  type UserRow,
} from './db.ts';
import { authErrors } from './errors.ts';
import { checkText, isUuid } from './input.ts';
import { relyingParty } from './mfa.ts';
import { sessionJson } from './serialize.ts';
import { issueSession } from './sessions.ts';
import { toEpochSeconds, toIso } from './time.ts';

/**
 * Passkeys (decision 149): sign-in with a discoverable WebAuthn credential, as GoTrue's passkey_*.go —
 * registration by a signed-in user (options → verify), sign-in by anyone holding a registered
 * credential (options → verify → a session with the `passkey` method), and the user's own list,
 * rename and delete. The ceremonies are checked by @simplewebauthn/server.
 */

type Json = Record<string, unknown>;

const simplewebauthn = onFirstUse(() => import('@simplewebauthn/server'));

const b64ToUrl = (value: string) => Buffer.from(value, 'base64').toString('base64url');

export function requirePasskeys(deps: AuthDeps): void {
  if (!deps.config.auth.passkey.enabled) throw authErrors.passkeyDisabled();
}

/** GoTrue's requirePasskeyManagementAAL: with MFA on, only an aal2 session manages passkeys. */
function requireManagementAal(user: UserRow, session: SessionRow | null | undefined): void {
  const mfa = user.factors.some((factor) => factor.status === 'verified');
  if (mfa && session?.aal !== 'aal2') throw authErrors.passkeyAal2Required();
}

export function passkeyListItem(row: PasskeyRow): Json {
  const item: Json = { id: row.id };
  if (row.friendly_name) item.friendly_name = row.friendly_name;
  item.created_at = toIso(row.created_at);
  if (row.last_used_at) item.last_used_at = toIso(row.last_used_at);
  return item;
}

function challengeIdOrThrow(value: string): string {
  if (value === '') throw authErrors.validation('challenge_id is required');
  if (!isUuid(value)) throw authErrors.validation('challenge_id must be a valid UUID');
  return value.toLowerCase();
}

function credentialOrThrow(value: unknown): Json {
  if (value === undefined || value === null) throw authErrors.validation('credential is required');
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw authErrors.webauthnVerificationFailed('Invalid credential response');
  }
  return value as Json;
}

export async function registrationOptions(
  deps: AuthDeps,
  auth: { user: UserRow; session: SessionRow },
): Promise<Json> {
  const { user } = auth;
  if (user.is_sso_user) throw authErrors.validation422('SSO users cannot register passkeys');
  requireManagementAal(user, auth.session);
  const { generateRegistrationOptions } = await simplewebauthn();
  const rp = relyingParty(deps);
  return deps.app.db.transaction(async (tx) => {
    const existing = await passkeysOfUser(tx, user.id);
    if (existing.length >= deps.config.auth.passkey.maxPerUser) throw authErrors.tooManyPasskeys();
    const name = user.email || user.phone || '';
    const fullName = user.raw_user_meta_data?.name;
    const options = await generateRegistrationOptions({
      rpName: rp.name,
      rpID: rp.id,
      userName: name,
      userDisplayName: typeof fullName === 'string' && fullName !== '' ? fullName : name,
      // GoTrue's user handle: the user id as text, so a sign-in's assertion names its user.
      userID: new Uint8Array(Buffer.from(user.id, 'utf8')),
      attestationType: 'none',
      excludeCredentials: existing.map((row) => ({ id: b64ToUrl(row.credential_id) })),
      authenticatorSelection: {
        residentKey: 'required',
        requireResidentKey: true,
        userVerification: 'preferred',
      },
    });
    const challenge = await insertWebAuthnChallenge(tx, {
      userId: user.id,
      type: 'registration',
      sessionData: { challenge: options.challenge },
      expirySeconds: deps.config.auth.webauthn.challengeExpiry,
    });
    return { challenge_id: challenge.id, options, expires_at: toEpochSeconds(challenge.expires_at) };
  });
}

export async function registrationVerify(
  deps: AuthDeps,
  auth: { user: UserRow; session: SessionRow },
  input: { challengeId: string; credential: unknown },
  meta: RequestMeta,
): Promise<Json> {
  const { user } = auth;
  if (user.is_sso_user) throw authErrors.validation422('SSO users cannot register passkeys');
  requireManagementAal(user, auth.session);
  const challengeId = challengeIdOrThrow(input.challengeId);
  const credential = credentialOrThrow(input.credential);
  const { verifyRegistrationResponse } = await simplewebauthn();
  const rp = relyingParty(deps);
  const taken = await deps.app.db.transaction((tx) =>
    takeWebAuthnChallenge(tx, challengeId, 'registration', user.id),
  );
  if (!taken) throw authErrors.webauthnChallengeNotFound();
  if (taken.expired) throw authErrors.webauthnChallengeExpired();
  let info: Awaited<ReturnType<typeof verifyRegistrationResponse>>['registrationInfo'];
  try {
    const result = await verifyRegistrationResponse({
      response: credential as never,
      expectedChallenge: String(taken.session_data.challenge),
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      requireUserVerification: false,
    });
    if (!result.verified) throw authErrors.webauthnVerificationFailed();
    info = result.registrationInfo;
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw authErrors.webauthnVerificationFailed();
  }
  if (!info) throw authErrors.webauthnVerificationFailed();
  const registered = info;
  return deps.app.db.transaction(async (tx) => {
    if ((await passkeysOfUser(tx, user.id)).length >= deps.config.auth.passkey.maxPerUser) {
      throw authErrors.tooManyPasskeys();
    }
    let row: PasskeyRow;
    try {
      row = await insertPasskey(tx, {
        userId: user.id,
        credentialId: Buffer.from(registered.credential.id, 'base64url'),
        publicKey: Buffer.from(registered.credential.publicKey),
        aaguid: /^[0-9a-f-]{36}$/i.test(registered.aaguid) ? registered.aaguid : null,
        signCount: registered.credential.counter,
        transports: registered.credential.transports ?? [],
        backupEligible: registered.credentialDeviceType === 'multiDevice',
        backedUp: registered.credentialBackedUp,
        friendlyName: '',
      });
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw authErrors.passkeyExists();
      throw error;
    }
    await audit(tx, meta, user, 'passkey_created', { passkey_id: row.id });
    const body: Json = { id: row.id };
    if (row.friendly_name) body.friendly_name = row.friendly_name;
    body.created_at = toIso(row.created_at);
    return body;
  });
}

export async function authenticationOptions(deps: AuthDeps, meta: RequestMeta): Promise<Json> {
  await deps.limits.perIp('passkey', meta.ip);
  const { generateAuthenticationOptions } = await simplewebauthn();
  const rp = relyingParty(deps);
  const options = await generateAuthenticationOptions({ rpID: rp.id, userVerification: 'preferred' });
  const challenge = await deps.app.db.transaction((tx) =>
    insertWebAuthnChallenge(tx, {
      userId: null,
      type: 'authentication',
      sessionData: { challenge: options.challenge },
      expirySeconds: deps.config.auth.webauthn.challengeExpiry,
    }),
  );
  return { challenge_id: challenge.id, options, expires_at: toEpochSeconds(challenge.expires_at) };
}

export async function authenticationVerify(
  deps: AuthDeps,
  input: { challengeId: string; credential: unknown },
  meta: RequestMeta,
): Promise<Json> {
  const challengeId = challengeIdOrThrow(input.challengeId);
  const credential = credentialOrThrow(input.credential);
  const taken = await deps.app.db.transaction((tx) =>
    takeWebAuthnChallenge(tx, challengeId, 'authentication', null),
  );
  if (!taken) throw authErrors.webauthnChallengeNotFound();
  if (taken.expired) throw authErrors.webauthnChallengeExpired();
  const rawId = typeof credential.rawId === 'string' ? credential.rawId : credential.id;
  if (typeof rawId !== 'string' || !/^[A-Za-z0-9_-]{1,1400}$/.test(rawId)) {
    throw authErrors.webauthnVerificationFailed('Invalid credential response');
  }
  const response = credential.response as Json | undefined;
  const userHandle = typeof response?.userHandle === 'string' ? response.userHandle : '';
  const { verifyAuthenticationResponse } = await simplewebauthn();
  const rp = relyingParty(deps);

  return deps.app.db.transaction(async (tx) => {
    const passkey = await findPasskeyByCredentialId(tx, Buffer.from(rawId, 'base64url'));
    // The assertion names its user (the handle registered with it); it must be the passkey's owner.
    if (
      !passkey ||
      (userHandle !== '' && Buffer.from(userHandle, 'base64url').toString('utf8') !== passkey.user_id)
    ) {
      throw authErrors.webauthnVerificationFailed();
    }
    let newCounter: number;
    try {
      const result = await verifyAuthenticationResponse({
        response: credential as never,
        expectedChallenge: String(taken.session_data.challenge),
        expectedOrigin: rp.origins,
        expectedRPID: rp.id,
        requireUserVerification: false,
        credential: {
          id: b64ToUrl(passkey.credential_id),
          publicKey: new Uint8Array(Buffer.from(passkey.public_key, 'base64')),
          counter: Number(passkey.sign_count),
          transports: passkey.transports as never,
        },
      });
      if (!result.verified) throw authErrors.webauthnVerificationFailed();
      newCounter = result.authenticationInfo.newCounter;
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw authErrors.webauthnVerificationFailed();
    }
    const user = await findUserById(tx, passkey.user_id, true);
    if (!user) throw authErrors.webauthnVerificationFailed();
    if (user.email && !user.email_confirmed_at) throw authErrors.emailNotConfirmedForbidden();
    if (user.banned) throw authErrors.userBanned(403);
    await passkeyUsed(tx, passkey.id, newCounter);
    await audit(tx, meta, user, 'login', { passkey_id: passkey.id });
    const session = await issueSession(tx, deps, user.id, 'passkey', meta);
    return sessionJson(session.tokens, session.user);
  });
}

export async function listPasskeys(deps: AuthDeps, user: UserRow): Promise<Json[]> {
  const rows = await deps.app.db.transaction((tx) => passkeysOfUser(tx, user.id));
  return rows.map(passkeyListItem);
}

export async function updatePasskey(
  deps: AuthDeps,
  user: UserRow,
  passkeyId: string,
  friendlyName: string,
  meta: RequestMeta,
): Promise<Json> {
  if (!isUuid(passkeyId)) throw authErrors.passkeyNotFound();
  if (friendlyName === '') throw authErrors.validation('friendly_name is required');
  if ([...friendlyName].length > 120)
    throw authErrors.validation('friendly_name must be 120 characters or less');
  checkText('friendly_name', friendlyName, 120);
  return deps.app.db.transaction(async (tx) => {
    const row = await findPasskey(tx, user.id, passkeyId.toLowerCase());
    if (!row) throw authErrors.passkeyNotFound();
    const renamed = await renamePasskey(tx, row.id, friendlyName);
    await audit(tx, meta, user, 'passkey_updated', { passkey_id: row.id });
    return passkeyListItem(renamed);
  });
}

export async function removePasskey(
  deps: AuthDeps,
  auth: { user: UserRow; session?: SessionRow | null },
  passkeyId: string,
  meta: RequestMeta,
): Promise<void> {
  requireManagementAal(auth.user, auth.session ?? null);
  if (!isUuid(passkeyId)) throw authErrors.passkeyNotFound();
  await deps.app.db.transaction(async (tx) => {
    const row = await findPasskey(tx, auth.user.id, passkeyId.toLowerCase());
    if (!row) throw authErrors.passkeyNotFound();
    await deletePasskey(tx, row.id);
    await audit(tx, meta, auth.user, 'passkey_deleted', { passkey_id: row.id });
  });
}
