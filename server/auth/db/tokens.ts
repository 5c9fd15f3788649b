import type { Queryable } from '../../db/driver.ts';
import { one } from '../../db/sql.ts';

/**
 * The auth service's SQL: one-time tokens (emailed links and codes), PKCE flow state and the OAuth state
 * towards the social provider. Every value is a bind parameter; the service runs as the connecting (owner)
 * role, as GoTrue runs as supabase_auth_admin, so no request scope applies.
 */

// ----------------------------------------------------------------------------------------------
// One-time tokens (emailed links and codes)
// ----------------------------------------------------------------------------------------------

export type OneTimeTokenType =
  | 'confirmation_token'
  | 'reauthentication_token'
  | 'recovery_token'
  | 'email_change_token_new'
  | 'email_change_token_current';

/** One live token per user and type: issuing a new one replaces the previous. */
export async function putOneTimeToken(
  tx: Queryable,
  userId: string,
  type: OneTimeTokenType,
  digest: string,
  relatesTo: string,
  mailed: boolean,
): Promise<void> {
  await tx.query(
    `insert into auth.one_time_tokens (id, user_id, token_type, token_hash, relates_to, created_at, updated_at, mailed)
     values (gen_random_uuid(), $1, $2, $3, $4, now() at time zone 'utc', now() at time zone 'utc', $5)
     on conflict (user_id, token_type) do update set token_hash = excluded.token_hash,
       relates_to = excluded.relates_to, created_at = excluded.created_at, updated_at = excluded.updated_at,
       mailed = excluded.mailed`,
    [userId, type, digest, relatesTo, mailed],
  );
}

export interface ConsumedToken {
  user_id: string;
  token_type: OneTimeTokenType;
  relates_to: string;
  fresh: boolean;
  /** The server mailed it to `relates_to` (not handed out by admin/generate_link). */
  mailed: boolean;
}

/**
 * Takes (deletes) the token whose digest is one of `digests`: whoever deletes it first used it, so a
 * token works once even under concurrent requests. `fresh` tells whether it was still within
 * `maxAgeSeconds`.
 */
export function takeOneTimeToken(
  tx: Queryable,
  digests: string[],
  types: OneTimeTokenType[],
  maxAgeSeconds: number,
): Promise<ConsumedToken | undefined> {
  return one<ConsumedToken>(
    tx,
    `delete from auth.one_time_tokens
     where id = (select id from auth.one_time_tokens where token_hash = any($1::text[])
                 and token_type::text = any($2::text[]) order by created_at desc limit 1 for update)
     returning user_id, token_type::text as token_type, relates_to, mailed,
       created_at >= (now() at time zone 'utc') - make_interval(secs => $3) as fresh`,
    [digests, types, maxAgeSeconds],
  );
}

export function findOneTimeToken(
  tx: Queryable,
  userId: string,
  type: OneTimeTokenType,
): Promise<{ token_hash: string; relates_to: string } | undefined> {
  return one(
    tx,
    'select token_hash, relates_to from auth.one_time_tokens where user_id = $1 and token_type = $2',
    [userId, type],
  );
}

export async function deleteOneTimeTokens(tx: Queryable, userId: string, types?: OneTimeTokenType[]) {
  await tx.query(
    'delete from auth.one_time_tokens where user_id = $1 and ($2::text[] is null or token_type::text = any($2::text[]))',
    [userId, types ?? null],
  );
}

// ----------------------------------------------------------------------------------------------
// PKCE flow state
// ----------------------------------------------------------------------------------------------

export async function insertFlowState(
  tx: Queryable,
  flow: {
    id: string;
    userId: string | null;
    authCode: string;
    challenge: string;
    method: 's256' | 'plain';
    providerType: string;
    authenticationMethod: string;
  },
): Promise<void> {
  await tx.query(
    `insert into auth.flow_state (id, user_id, auth_code, code_challenge_method, code_challenge, provider_type,
       created_at, updated_at, authentication_method)
     values ($1, $2, $3, $4, $5, $6, now(), now(), $7)`,
    [
      flow.id,
      flow.userId,
      flow.authCode,
      flow.method,
      flow.challenge,
      flow.providerType,
      flow.authenticationMethod,
    ],
  );
}

/** Hands out the auth code of the user's newest flow of this kind (the emailed link was opened). */
export function issueAuthCode(
  tx: Queryable,
  userId: string,
  authenticationMethod: string,
): Promise<{ auth_code: string } | undefined> {
  return one(
    tx,
    `update auth.flow_state set auth_code_issued_at = now(), updated_at = now()
     where id = (select id from auth.flow_state where user_id = $1 and authentication_method = $2
                 order by created_at desc limit 1)
     returning auth_code`,
    [userId, authenticationMethod],
  );
}

export async function completeFlowState(
  tx: Queryable,
  id: string,
  userId: string,
  provider?: { accessToken: string | null; refreshToken: string | null },
): Promise<{ auth_code: string } | undefined> {
  return one(
    tx,
    `update auth.flow_state set user_id = $2, auth_code_issued_at = now(), updated_at = now(),
       provider_access_token = $3, provider_refresh_token = $4
     where id = $1 returning auth_code`,
    [id, userId, provider?.accessToken ?? null, provider?.refreshToken ?? null],
  );
}

export interface FlowStateRow {
  id: string;
  user_id: string | null;
  code_challenge: string;
  code_challenge_method: 's256' | 'plain';
  authentication_method: string;
  provider_type: string;
  provider_access_token: string | null;
  provider_refresh_token: string | null;
  expired: boolean;
}

/** Takes the flow for an auth code (single use: deleted in the same transaction). */
export function takeFlowState(
  tx: Queryable,
  authCode: string,
  expirySeconds: number,
): Promise<FlowStateRow | undefined> {
  return one<FlowStateRow>(
    tx,
    `delete from auth.flow_state where auth_code = $1
     returning id, user_id, code_challenge, code_challenge_method::text as code_challenge_method,
       authentication_method, provider_type, provider_access_token, provider_refresh_token,
       coalesce(auth_code_issued_at, created_at) < now() - make_interval(secs => $2) as expired`,
    [authCode, expirySeconds],
  );
}

// ----------------------------------------------------------------------------------------------
// OAuth state towards the social provider
// ----------------------------------------------------------------------------------------------

export async function insertOAuthClientState(
  tx: Queryable,
  state: { id: string; provider: string; codeVerifier: string; nonce: string },
): Promise<void> {
  await tx.query(
    'insert into auth.oauth_client_states (id, provider_type, code_verifier, nonce, created_at) values ($1, $2, $3, $4, now())',
    [state.id, state.provider, state.codeVerifier, state.nonce],
  );
}

export function takeOAuthClientState(
  tx: Queryable,
  id: string,
  maxAgeSeconds: number,
): Promise<{ provider_type: string; code_verifier: string; nonce: string; fresh: boolean } | undefined> {
  return one(
    tx,
    `delete from auth.oauth_client_states where id = $1
     returning provider_type, code_verifier, nonce, created_at >= now() - make_interval(secs => $2) as fresh`,
    [id, maxAgeSeconds],
  );
}
