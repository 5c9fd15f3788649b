import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/driver.ts';
import { s256Challenge, safeEqual } from './crypto.ts';
import { insertFlowState, takeFlowState } from './db.ts';
import { authErrors } from './errors.ts';

/** A PKCE code challenge a client sent with a request that will end in a redirect with `?code=`. */
export interface CodeChallenge {
  challenge: string;
  method: 's256' | 'plain';
}

/**
 * GoTrue's checks: both or neither of code_challenge and code_challenge_method; the method s256 or
 * plain (any case); the challenge 43 to 128 characters of RFC 7636's alphabet.
 */
export function parseCodeChallenge(challenge: string, method: string): CodeChallenge | undefined {
  if (challenge === '' && method === '') return undefined;
  if (challenge === '' || method === '') {
    throw authErrors.validation('PKCE flow requires code_challenge_method and code_challenge');
  }
  // GoTrue's isValidCodeChallenge (RFC 7636 §4.2): the length first, then the characters.
  if (challenge.length < 43 || challenge.length > 128) {
    throw authErrors.validation('code challenge has to be between 43 and 128 characters');
  }
  if (!/^[A-Za-z0-9._~-]+$/.test(challenge)) {
    throw authErrors.validation(
      'code challenge can only contain alphanumeric characters, hyphens, periods, underscores and tildes',
    );
  }
  const normalized = method.toLowerCase();
  if (normalized !== 's256' && normalized !== 'plain') {
    throw authErrors.validation(`code challenge method not supported: ${method.slice(0, 20)}`);
  }
  return { challenge, method: normalized };
}

export async function createFlowState(
  tx: Queryable,
  pkce: CodeChallenge,
  options: { userId: string | null; providerType: string; authenticationMethod: string },
): Promise<{ id: string; authCode: string }> {
  const id = randomUUID();
  const authCode = randomUUID();
  await insertFlowState(tx, {
    id,
    userId: options.userId,
    authCode,
    challenge: pkce.challenge,
    method: pkce.method,
    providerType: options.providerType,
    authenticationMethod: options.authenticationMethod,
  });
  return { id, authCode };
}

/** The pkce grant's checks: the code exists (once), is recent, has a user, and the verifier matches. */
export async function redeemAuthCode(
  tx: Queryable,
  authCode: string,
  verifier: string,
  expirySeconds: number,
): Promise<{
  userId: string;
  authenticationMethod: string;
  providerType: string;
  providerToken: string | null;
  providerRefreshToken: string | null;
}> {
  if (authCode === '' || verifier === '') {
    throw authErrors.validation('invalid request: both auth code and code verifier should be non-empty');
  }
  const flow = await takeFlowState(tx, authCode, expirySeconds);
  if (!flow || flow.user_id === null) throw authErrors.flowStateNotFound();
  if (flow.expired) throw authErrors.flowStateExpired();
  const expected = flow.code_challenge_method === 's256' ? s256Challenge(verifier) : verifier;
  if (!safeEqual(expected, flow.code_challenge)) throw authErrors.badCodeVerifier();
  return {
    userId: flow.user_id,
    authenticationMethod: flow.authentication_method,
    providerType: flow.provider_type,
    providerToken: flow.provider_access_token,
    providerRefreshToken: flow.provider_refresh_token,
  };
}
