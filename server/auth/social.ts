import { createHash, randomUUID } from 'node:crypto';
import { createRemoteJWKSet, type JWTPayload, jwtVerify, SignJWT } from 'jose';
import type * as Oidc from 'openid-client';
import type { OAuthProviderConfig } from '../config.ts';
import type { Queryable } from '../db/driver.ts';
import { ApiError } from '../http/errors.ts';
import { onFirstUse } from '../lazy.ts';
import { audit } from './audit.ts';
import type { AuthDeps, RequestMeta } from './auth.ts';
import { sha256Hex } from './crypto.ts';
import {
  completeFlowState,
  deleteIdentity,
  findIdentity,
  findUserByEmail,
  findUserById,
  insertIdentity,
  insertOAuthClientState,
  insertUser,
  syncProviders,
  takeOAuthClientState,
  type UserRow,
  updateIdentityData,
  updateUser,
} from './db.ts';
import { authErrors } from './errors.ts';
import { isCleanText, normalizeEmail } from './input.ts';
import { type CodeChallenge, createFlowState } from './pkce.ts';
import { errorRedirect, withFragment, withQuery } from './redirects.ts';
import { sessionJson } from './serialize.ts';
import { issueSession } from './sessions.ts';
import { nowSeconds } from './time.ts';

/**
 * The one social sign-in provider, spoken to with openid-client: OpenID Connect discovery (or
 * explicit endpoints for plain OAuth 2.0), authorization code flow with PKCE and nonce towards the
 * provider, ID tokens verified against the provider's JWKS. Our own PKCE towards the browser (the
 * `code_challenge` supabase-js sends) is separate and lives in auth.flow_state, as in GoTrue.
 */

type Json = Record<string, unknown>;

/** openid-client loads with the first social sign-in, not at start-up (decision 086). */
const openidClient = onFirstUse(() => import('openid-client'));

const STATE_TTL_SECONDS = 600;
/** Authorization-request parameters a client may pass through to the provider. */
const PASS_THROUGH = new Set([
  'prompt',
  'login_hint',
  'access_type',
  'hd',
  'display',
  'max_age',
  'ui_locales',
]);

export class SocialProvider {
  readonly name: string;
  private configuration: Promise<Oidc.Configuration> | undefined;
  private keySet: ReturnType<typeof createRemoteJWKSet> | undefined;

  constructor(
    private readonly settings: OAuthProviderConfig,
    readonly redirectUri: string,
  ) {
    this.name = settings.provider;
  }

  get isOidc(): boolean {
    return this.settings.scopes.split(/[\s,]+/).includes('openid');
  }

  get clientId(): string {
    return this.settings.clientId;
  }

  /** Discovery happens on first use and is retried after a failure. */
  config(): Promise<Oidc.Configuration> {
    this.configuration ??= this.load().catch((error) => {
      this.configuration = undefined;
      throw error;
    });
    return this.configuration;
  }

  private async load(): Promise<Oidc.Configuration> {
    const oidc = await openidClient();
    const s = this.settings;
    const insecure = [s.issuer, s.authorizationEndpoint, s.tokenEndpoint, s.userinfoEndpoint, s.jwksUri].some(
      (url) => url?.startsWith('http:'),
    );
    let metadata: Oidc.ServerMetadata;
    if (s.issuer) {
      const discovered = await oidc.discovery(new URL(s.issuer), s.clientId, s.clientSecret, undefined, {
        execute: insecure ? [oidc.allowInsecureRequests] : [],
        timeout: 10,
      });
      metadata = discovered.serverMetadata();
    } else {
      metadata = { issuer: new URL(s.authorizationEndpoint as string).origin };
    }
    metadata = {
      ...metadata,
      ...(s.authorizationEndpoint ? { authorization_endpoint: s.authorizationEndpoint } : {}),
      ...(s.tokenEndpoint ? { token_endpoint: s.tokenEndpoint } : {}),
      ...(s.userinfoEndpoint ? { userinfo_endpoint: s.userinfoEndpoint } : {}),
      ...(s.jwksUri ? { jwks_uri: s.jwksUri } : {}),
    };
    const config = new oidc.Configuration(metadata, s.clientId, s.clientSecret);
    if (insecure) oidc.allowInsecureRequests(config);
    config.timeout = 10;
    return config;
  }

  async jwks(): Promise<{ keys: ReturnType<typeof createRemoteJWKSet>; issuer: string }> {
    const metadata = (await this.config()).serverMetadata();
    if (!metadata.jwks_uri) throw authErrors.oauth('invalid request', 'Bad ID token');
    this.keySet ??= createRemoteJWKSet(new URL(metadata.jwks_uri), { timeoutDuration: 10_000 });
    return { keys: this.keySet, issuer: metadata.issuer };
  }

  scopesWith(extra: string): string {
    const scopes = new Set(this.settings.scopes.split(/[\s,]+/).filter(Boolean));
    for (const scope of extra.split(/[\s,]+/)) if (/^[\x21-\x7e]{1,64}$/.test(scope)) scopes.add(scope);
    return [...scopes].join(' ');
  }
}

// ----------------------------------------------------------------------------------------------
// State between /authorize and /callback: a short-lived JWT under a key of its own (never valid as
// an API token), pointing at a single-use row with our PKCE verifier and nonce towards the provider.
// ----------------------------------------------------------------------------------------------

interface OAuthState {
  provider: string;
  referrer: string;
  oauth_client_state_id: string;
  flow_state_id?: string;
  linking_target_id?: string;
}

function stateKey(deps: AuthDeps): Uint8Array {
  return createHash('sha256').update(`oauth-state:${deps.app.keys.jwtSecret}`).digest();
}

async function signState(deps: AuthDeps, state: OAuthState): Promise<string> {
  return new SignJWT({ ...state })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime(nowSeconds() + STATE_TTL_SECONDS)
    .sign(stateKey(deps));
}

async function readState(deps: AuthDeps, token: string): Promise<OAuthState> {
  try {
    const { payload } = await jwtVerify(token, stateKey(deps), { algorithms: ['HS256'] });
    if (typeof payload.provider !== 'string' || typeof payload.referrer !== 'string')
      throw new Error('shape');
    if (typeof payload.oauth_client_state_id !== 'string') throw new Error('shape');
    return payload as unknown as OAuthState;
  } catch {
    throw authErrors.badOAuthState();
  }
}

function providerOf(deps: AuthDeps, name: string): SocialProvider {
  if (!deps.provider || deps.provider.name !== name) throw authErrors.providerDisabled();
  return deps.provider;
}

export async function authorizationUrl(
  deps: AuthDeps,
  input: {
    provider: string;
    redirectTo: string | undefined;
    scopes: string;
    pkce: CodeChallenge | undefined;
    linkingUserId?: string;
    extra: Record<string, string>;
  },
  meta: RequestMeta,
): Promise<string> {
  const provider = providerOf(deps, input.provider);
  await deps.limits.perIp('signin', meta.ip);
  const config = await provider.config().catch((error) => {
    deps.app.log.error({ err: error }, 'social provider discovery failed');
    throw authErrors.unexpected('The sign-in provider is unreachable, please try again later');
  });
  const referrer = deps.redirects.resolve(input.redirectTo);
  const oidc = await openidClient();
  const verifier = oidc.randomPKCECodeVerifier();
  const nonce = oidc.randomNonce();
  const clientStateId = randomUUID();
  const flowStateId = await deps.app.db.transaction(async (tx) => {
    await insertOAuthClientState(tx, {
      id: clientStateId,
      provider: provider.name,
      codeVerifier: verifier,
      nonce,
    });
    if (!input.pkce) return undefined;
    const flow = await createFlowState(tx, input.pkce, {
      userId: null,
      providerType: provider.name,
      authenticationMethod: 'oauth',
    });
    return flow.id;
  });
  const state = await signState(deps, {
    provider: provider.name,
    referrer,
    oauth_client_state_id: clientStateId,
    ...(flowStateId ? { flow_state_id: flowStateId } : {}),
    ...(input.linkingUserId ? { linking_target_id: input.linkingUserId } : {}),
  });
  const extra = Object.fromEntries(Object.entries(input.extra).filter(([name]) => PASS_THROUGH.has(name)));
  return oidc
    .buildAuthorizationUrl(config, {
      ...extra,
      redirect_uri: provider.redirectUri,
      response_type: 'code',
      scope: provider.scopesWith(input.scopes),
      state,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      ...(provider.isOidc ? { nonce } : {}),
    })
    .toString();
}

/**
 * The provider sent the browser back. Every outcome is a redirect to where the sign-in started
 * (errors in the fragment, GoTrue-style), except a state we cannot read: then there is nowhere safe
 * to send the browser, and the answer is a JSON error.
 */
export async function handleCallback(
  deps: AuthDeps,
  params: Record<string, string>,
  meta: RequestMeta,
): Promise<string> {
  if (!params.state) throw authErrors.badOAuthState();
  const state = await readState(deps, params.state);
  const referrer = deps.redirects.resolve(state.referrer);
  const pkce = state.flow_state_id !== undefined;
  const fail = (error: ApiError) => errorRedirect(referrer, error, pkce);
  try {
    const provider = providerOf(deps, state.provider);
    // The state is spent by whatever comes back first, success or refusal.
    const clientState = await deps.app.db.transaction((tx) =>
      takeOAuthClientState(tx, state.oauth_client_state_id, STATE_TTL_SECONDS),
    );
    if (!clientState?.fresh || clientState.provider_type !== provider.name)
      return fail(authErrors.badOAuthState());
    if (params.error) {
      const description =
        (params.error_description ?? '').slice(0, 300) || 'The sign-in provider reported an error';
      return errorRedirect(referrer, { status: 403, code: 'bad_oauth_callback', message: description }, pkce);
    }

    const config = await provider.config();
    const current = new URL(provider.redirectUri);
    for (const [name, value] of Object.entries(params)) current.searchParams.set(name, value);
    const oidc = await openidClient();
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: clientState.code_verifier,
        expectedState: params.state,
        ...(provider.isOidc ? { expectedNonce: clientState.nonce, idTokenExpected: true } : {}),
      });
    } catch (error) {
      deps.app.log.warn({ err: error }, 'social sign-in: code exchange failed');
      return fail(authErrors.badOAuthCallback('Unable to exchange external code'));
    }
    let claims: Json = { ...(tokens.claims() ?? {}) };
    const metadata = config.serverMetadata();
    if (metadata.userinfo_endpoint) {
      try {
        const subject = typeof claims.sub === 'string' ? claims.sub : oidc.skipSubjectCheck;
        claims = { ...(await oidc.fetchUserInfo(config, tokens.access_token, subject)), ...claims };
      } catch (error) {
        if (!claims.sub) {
          deps.app.log.warn({ err: error }, 'social sign-in: userinfo failed');
          return fail(authErrors.badOAuthCallback('Error getting user profile from external provider'));
        }
      }
    }
    const result = await deps.app.db.transaction(async (tx) => {
      const userId = await resolveUser(tx, deps, provider.name, claims, state.linking_target_id, meta);
      if (pkce) {
        const flow = await completeFlowState(tx, state.flow_state_id as string, userId, {
          accessToken: tokens.access_token,
          refreshToken: tokens.refresh_token ?? null,
        });
        if (!flow) throw authErrors.flowStateNotFound();
        return withQuery(referrer, { code: flow.auth_code });
      }
      const session = await issueSession(tx, deps, userId, 'oauth', meta, provider.name);
      return withFragment(referrer, {
        access_token: session.tokens.accessToken,
        expires_at: String(session.tokens.expiresAt),
        expires_in: String(session.tokens.expiresIn),
        provider_token: tokens.access_token,
        ...(tokens.refresh_token ? { provider_refresh_token: tokens.refresh_token } : {}),
        refresh_token: session.tokens.refreshToken,
        token_type: 'bearer',
      });
    });
    return result;
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) return fail(error);
    deps.app.log.error({ err: error }, 'social sign-in failed');
    return fail(authErrors.unexpected());
  }
}

const PROFILE_CLAIMS = [
  'iss',
  'sub',
  'name',
  'given_name',
  'family_name',
  'middle_name',
  'nickname',
  'preferred_username',
  'profile',
  'picture',
  'website',
  'locale',
  'zoneinfo',
];

function isTrue(value: unknown): boolean {
  return value === true || value === 'true';
}

/** The provider's profile as GoTrue stores it (identity_data, copied into user_metadata). */
export function identityDataFrom(claims: Json, email: string | undefined): Json {
  const data: Json = {};
  for (const name of PROFILE_CLAIMS) {
    const value = claims[name];
    if (typeof value === 'string' && value.length <= 512 && isCleanText(value)) data[name] = value;
  }
  if (email) data.email = email;
  data.email_verified = email !== undefined && isTrue(claims.email_verified);
  data.phone_verified = false;
  data.provider_id = data.sub;
  if (typeof data.name === 'string') data.full_name = data.name;
  if (typeof data.picture === 'string') data.avatar_url = data.picture;
  return data;
}

function emailFrom(claims: Json): string | undefined {
  if (typeof claims.email !== 'string') return undefined;
  try {
    return normalizeEmail(claims.email);
  } catch {
    return undefined;
  }
}

/**
 * Finds or creates the user a provider identity belongs to, GoTrue's account-linking rules: a known
 * identity signs its user in; a new identity with a provider-verified address joins the account with
 * that address; otherwise a new account. An unconfirmed account taken over this way loses its
 * password, since whoever set it never proved the address (docs/decisions/017-auth-social-login.md).
 */
async function resolveUser(
  tx: Queryable,
  deps: AuthDeps,
  provider: string,
  claims: Json,
  linkingTargetId: string | undefined,
  meta: RequestMeta,
): Promise<string> {
  const sub =
    typeof claims.sub === 'string' && claims.sub.length <= 255 && isCleanText(claims.sub) ? claims.sub : '';
  if (!sub) throw authErrors.badOAuthCallback('The provider did not identify the user (no sub claim)');
  const email = emailFrom(claims);
  const verified = email !== undefined && isTrue(claims.email_verified);
  const data = identityDataFrom(claims, email);
  const identity = await findIdentity(tx, provider, sub);

  if (linkingTargetId) {
    if (identity && identity.user_id !== linkingTargetId) throw authErrors.identityAlreadyExists();
    if (identity) await updateIdentityData(tx, linkingTargetId, provider, data, true);
    else await insertIdentity(tx, { userId: linkingTargetId, provider, providerId: sub, data });
    const target = await findUserById(tx, linkingTargetId, true);
    if (!target) throw authErrors.userNotFound();
    if (target.is_anonymous && !target.email && email !== undefined && verified) {
      // GoTrue's linkIdentityToUser: an anonymous account takes the provider's verified address and
      // becomes permanent (decision 148). An unverified or missing address leaves it anonymous.
      const taken = await findUserByEmail(tx, email);
      if (taken && taken.id !== target.id) throw authErrors.emailExists();
      await updateUser(tx, target.id, { email, emailConfirmedNow: true, isAnonymous: false });
    }
    await syncProviders(tx, linkingTargetId);
    const user = await findUserById(tx, linkingTargetId);
    if (!user) throw authErrors.userNotFound();
    await audit(tx, meta, user, 'user_modified', { provider, identity_linked: true });
    return user.id;
  }

  let user: UserRow | undefined;
  const sameEmail = identity || !email ? undefined : await findUserByEmail(tx, email, true);
  if (identity) {
    user = await findUserById(tx, identity.user_id, true);
    if (!user) throw authErrors.userNotFound();
    await updateIdentityData(tx, user.id, provider, data, true);
    const userChanges: Parameters<typeof updateUser>[2] = {
      userMetadata: { ...(user.raw_user_meta_data ?? {}), ...data },
    };
    if (verified && !user.email_confirmed_at && user.email?.toLowerCase() === email)
      userChanges.emailConfirmedNow = true;
    await updateUser(tx, user.id, userChanges);
  } else if (sameEmail) {
    user = sameEmail;
    if (!verified) throw authErrors.providerEmailNeedsVerification();
    await insertIdentity(tx, { userId: user.id, provider, providerId: sub, data });
    await updateUser(tx, user.id, {
      userMetadata: { ...data, ...(user.raw_user_meta_data ?? {}) },
      ...(user.email_confirmed_at ? {} : { emailConfirmedNow: true, encryptedPassword: '' }),
    });
    await syncProviders(tx, user.id);
  } else {
    if (deps.config.disableSignup) throw authErrors.signupDisabled();
    const id = randomUUID();
    await insertUser(tx, {
      id,
      email: email ?? null,
      encryptedPassword: '',
      emailConfirmed: verified,
      invited: false,
      appMetadata: { provider, providers: [provider] },
      userMetadata: data,
    });
    await insertIdentity(tx, { userId: id, provider, providerId: sub, data });
    user = (await findUserById(tx, id)) as UserRow;
    await audit(tx, meta, user, 'user_signedup', { provider });
  }
  if (user.banned) throw authErrors.userBanned(403);
  await audit(tx, meta, user, 'login', { provider });
  return user.id;
}

/** POST /token?grant_type=id_token: an ID token the client got from the provider itself. */
export async function idTokenGrant(
  deps: AuthDeps,
  input: { provider: string; idToken: string; nonce: string; linkUserId: string | undefined },
  meta: RequestMeta,
): Promise<Json> {
  // GoTrue's checks, in its order and with its OAuth-shaped errors (token_oidc.go).
  if (input.idToken === '') throw authErrors.oauth('invalid request', 'id_token required');
  if (input.provider === '') {
    throw authErrors.oauth('invalid request', 'provider or client_id and issuer required');
  }
  const provider = providerOf(deps, input.provider);
  await deps.limits.perIp('signin', meta.ip);
  let payload: JWTPayload;
  try {
    const { keys, issuer } = await provider.jwks();
    ({ payload } = await jwtVerify(input.idToken, keys, { issuer }));
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw authErrors.oauth('invalid request', 'Bad ID token');
  }
  if (typeof payload.sub !== 'string' || payload.sub === '') {
    throw authErrors.oauth('invalid request', 'Missing sub claim in id_token');
  }
  const audience = payload.aud === undefined ? [] : Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  if (!audience.includes(provider.clientId)) {
    throw authErrors.oauth('invalid request', `Unacceptable audience in id_token: [${audience.join(' ')}]`);
  }
  const tokenNonce = typeof payload.nonce === 'string' && payload.nonce !== '' ? payload.nonce : undefined;
  if ((tokenNonce === undefined) !== (input.nonce === '')) {
    throw authErrors.oauth(
      'invalid request',
      'Passed nonce and nonce in id_token should either both exist or not.',
    );
  }
  if (tokenNonce !== undefined && tokenNonce !== sha256Hex(input.nonce) && tokenNonce !== input.nonce) {
    throw authErrors.oauth('invalid nonce', 'Nonces mismatch');
  }
  return deps.app.db.transaction(async (tx) => {
    const userId = await resolveUser(tx, deps, provider.name, payload as Json, input.linkUserId, meta);
    const session = await issueSession(tx, deps, userId, 'oauth', meta, provider.name);
    return sessionJson(session.tokens, session.user);
  });
}

/** Unlinks one of the user's identities (DELETE /user/identities/{id}); never the last one. */
export async function unlinkIdentity(
  deps: AuthDeps,
  userId: string,
  identityId: string,
  meta: RequestMeta,
): Promise<void> {
  await deps.app.db.transaction(async (tx) => {
    const user = await findUserById(tx, userId, true);
    const identity = user?.identities.find((candidate) => candidate.identity_id === identityId.toLowerCase());
    if (!user || !identity) throw authErrors.identityNotFound();
    if (user.identities.length <= 1) throw authErrors.singleIdentity();
    await deleteIdentity(tx, user.id, identity.identity_id);
    await syncProviders(tx, user.id);
    await audit(tx, meta, user, 'identity_unlinked', { provider: identity.provider });
  });
}
