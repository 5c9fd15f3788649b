import { randomUUID } from 'node:crypto';
import { type CryptoKey, importJWK, SignJWT } from 'jose';
import type { Queryable } from '../db/driver.ts';
import { type Keys, secretBytes } from '../keys.ts';
import { audit } from './audit.ts';
import type { AuthDeps, RequestMeta } from './auth.ts';
import { randomToken, sha256Hex } from './crypto.ts';
import {
  type AmrClaim,
  amrClaims,
  currentRefreshToken,
  deleteSession,
  deleteSessionsOfUser,
  findUserById,
  insertSession,
  lockRefreshToken,
  rotateRefreshToken,
  type UserRow,
} from './db.ts';
import { authErrors } from './errors.ts';
import { redeemAuthCode } from './pkce.ts';
import { type SessionTokens, sessionJson } from './serialize.ts';
import { nowSeconds, toEpochSeconds } from './time.ts';

/** Authentication methods that raise a session to aal2 (GoTrue's IsAAL2Claim). */
const AAL2_METHODS = new Set(['totp', 'mfa/totp', 'mfa/phone', 'mfa/webauthn']);

export function assuranceOf(claims: AmrClaim[]): {
  aal: 'aal1' | 'aal2';
  amr: { method: string; timestamp: number }[];
} {
  const amr = claims
    .map((claim) => ({ method: claim.method, timestamp: toEpochSeconds(claim.updated_at) }))
    .sort((a, b) => b.timestamp - a.timestamp);
  return { aal: claims.some((claim) => AAL2_METHODS.has(claim.method)) ? 'aal2' : 'aal1', amr };
}

const signers = new WeakMap<Keys, Promise<{ key: Uint8Array | CryptoKey; alg: string; kid?: string }>>();

/**
 * What signs access tokens: the current asymmetric key, with its `kid`, when ES256 or RS256 is
 * chosen (decision 178); JWT_SECRET (HS256, no `kid`) otherwise.
 */
function signerOf(keys: Keys): Promise<{ key: Uint8Array | CryptoKey; alg: string; kid?: string }> {
  let signer = signers.get(keys);
  if (!signer) {
    const current = keys.asymmetric ? keys.signingKeys[0] : undefined;
    signer = current
      ? importJWK(current.privateJwk, current.alg).then((key) => ({
          key: key as CryptoKey,
          alg: current.alg,
          kid: current.kid,
        }))
      : Promise.resolve({ key: secretBytes(keys.jwtSecret), alg: 'HS256' });
    signers.set(keys, signer);
  }
  return signer;
}

/** GoTrue's access token: its claims in its order, valid for JWT_EXPIRY seconds. */
export async function signAccessToken(
  deps: AuthDeps,
  user: UserRow,
  sessionId: string,
  claims: AmrClaim[],
): Promise<{ token: string; expiresAt: number }> {
  const issuedAt = nowSeconds();
  const expiresAt = issuedAt + deps.config.jwtExpiry;
  const { aal, amr } = assuranceOf(claims);
  const signer = await signerOf(deps.app.keys);
  const token = await new SignJWT({
    aud: user.aud ?? 'authenticated',
    exp: expiresAt,
    iat: issuedAt,
    iss: deps.apiUrl,
    sub: user.id,
    email: user.email ?? '',
    phone: user.phone ?? '',
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    role: user.role ?? 'authenticated',
    aal,
    amr,
    session_id: sessionId,
    is_anonymous: user.is_anonymous,
  })
    .setProtectedHeader(
      signer.kid ? { alg: signer.alg, kid: signer.kid, typ: 'JWT' } : { alg: signer.alg, typ: 'JWT' },
    )
    .sign(signer.key);
  return { token, expiresAt };
}

export interface IssuedSession {
  sessionId: string;
  user: UserRow;
  tokens: SessionTokens;
}

/**
 * A new session for a user who just proved who they are: session row, first refresh token (stored as
 * its SHA-256) and the authentication method, in the caller's transaction, so a failure leaves nothing
 * behind. (The support account's admin role is not granted here but when its mailbox is proven:
 * admin-bootstrap.ts, decision 093.)
 */
export async function issueSession(
  tx: Queryable,
  deps: AuthDeps,
  userId: string,
  method: string,
  meta: RequestMeta,
  provider: string | null = null,
): Promise<IssuedSession> {
  const sessionId = randomUUID();
  const refreshToken = randomToken();
  await insertSession(tx, {
    id: sessionId,
    userId,
    tokenHash: sha256Hex(refreshToken),
    method,
    userAgent: meta.userAgent,
    ip: meta.ip,
    provider,
  });
  const user = await findUserById(tx, userId);
  if (!user) throw authErrors.userNotFound();
  const { token, expiresAt } = await signAccessToken(deps, user, sessionId, await amrClaims(tx, sessionId));
  return {
    sessionId,
    user,
    tokens: { accessToken: token, refreshToken, expiresIn: deps.config.jwtExpiry, expiresAt },
  };
}

/** A fresh access token and rotated refresh token for an existing session (after MFA). */
export async function reissueSession(
  tx: Queryable,
  deps: AuthDeps,
  user: UserRow,
  sessionId: string,
  meta: RequestMeta,
): Promise<SessionTokens> {
  const current = await currentRefreshToken(tx, sessionId);
  if (!current) throw authErrors.sessionNotFound();
  const refreshToken = randomToken();
  await rotateRefreshToken(tx, current, sha256Hex(refreshToken), meta);
  const { token, expiresAt } = await signAccessToken(deps, user, sessionId, await amrClaims(tx, sessionId));
  return { accessToken: token, refreshToken, expiresIn: deps.config.jwtExpiry, expiresAt };
}

/**
 * The refresh_token grant. The presented token is rotated: revoked, and a child issued. A revoked
 * token presented again within REFRESH_TOKEN_REUSE_INTERVAL of its rotation (two tabs refreshing at
 * once, a response lost on the way) gets a fresh child as well; presented later, it is treated as
 * stolen and the whole session is revoked (docs/decisions/012-auth-token-storage.md).
 */
export async function refreshSession(
  deps: AuthDeps,
  refreshToken: string,
  meta: RequestMeta,
): Promise<Record<string, unknown>> {
  if (refreshToken === '') throw authErrors.refreshTokenRequired();
  const outcome = await deps.app.db.transaction(async (tx) => {
    const row = await lockRefreshToken(tx, sha256Hex(refreshToken));
    if (!row) throw authErrors.refreshTokenNotFound();
    const user = await findUserById(tx, row.user_id);
    if (!user) throw authErrors.refreshTokenNotFound();
    if (user.banned) throw authErrors.refreshUserBanned();
    if (row.session_expired) throw authErrors.sessionExpired();
    if (row.revoked && row.seconds_since_update > deps.config.auth.refreshTokenReuseInterval) {
      await deleteSession(tx, row.session_id);
      await audit(tx, meta, user, 'token_revoked', { reason: 'refresh_token_reuse' });
      return { replayed: true as const };
    }
    const child = randomToken();
    await rotateRefreshToken(tx, row, sha256Hex(child), meta);
    await audit(tx, meta, user, 'token_refreshed');
    const { token, expiresAt } = await signAccessToken(deps, user, row.session_id, row.amr);
    return {
      replayed: false as const,
      body: sessionJson(
        { accessToken: token, refreshToken: child, expiresIn: deps.config.jwtExpiry, expiresAt },
        user,
      ),
    };
  });
  // The revocation is committed before the error is answered.
  if (outcome.replayed) throw authErrors.refreshTokenAlreadyUsed();
  return outcome.body;
}

/**
 * The pkce grant: the auth code a redirect carried, with the verifier of its challenge, becomes a
 * session, with the provider's tokens when the flow came through the social provider.
 */
export async function exchangeAuthCode(
  deps: AuthDeps,
  input: { authCode: string; verifier: string },
  meta: RequestMeta,
): Promise<Record<string, unknown>> {
  return deps.app.db.transaction(async (tx) => {
    const flow = await redeemAuthCode(tx, input.authCode, input.verifier, deps.config.auth.flowStateExpiry);
    const session = await issueSession(
      tx,
      deps,
      flow.userId,
      flow.authenticationMethod,
      meta,
      flow.providerType,
    );
    return sessionJson(session.tokens, session.user, {
      ...(flow.providerToken ? { provider_token: flow.providerToken } : {}),
      ...(flow.providerRefreshToken ? { provider_refresh_token: flow.providerRefreshToken } : {}),
    });
  });
}

export type LogoutScope = 'global' | 'local' | 'others';

export async function logout(
  deps: AuthDeps,
  user: UserRow,
  sessionId: string | null,
  scope: LogoutScope,
  meta: RequestMeta,
): Promise<void> {
  await deps.app.db.transaction(async (tx) => {
    if (scope === 'global') await deleteSessionsOfUser(tx, user.id);
    else if (sessionId !== null && scope === 'local') await deleteSession(tx, sessionId);
    else if (sessionId !== null) await deleteSessionsOfUser(tx, user.id, sessionId);
    await audit(tx, meta, user, 'logout', { scope });
  });
}
