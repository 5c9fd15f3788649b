import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DatabaseBusyError } from '../db/gate.ts';
import { ApiError, toApiError } from '../http/errors.ts';

/**
 * Every error the auth service answers with, made only here, with GoTrue's HTTP status, error code
 * and message (supabase/auth internal/api/apierrors), so auth-js maps each to the same error class
 * and `error.code` as against a hosted project.
 */
const err = (status: number, code: string, message: string, details?: unknown) =>
  new ApiError(status, code, message, { details });

export const authErrors = {
  // Request shape
  badJson: (detail: string) => err(400, 'bad_json', `Could not parse request body as JSON: ${detail}`),
  validation: (message: string) => err(400, 'validation_failed', message),
  validation422: (message: string) => err(422, 'validation_failed', message),
  emailInvalid: () => err(400, 'validation_failed', 'Unable to validate email address: invalid format'),
  emailRequired: () => err(400, 'validation_failed', 'An email address is required'),
  routeNotFound: (method: string, path: string) => err(404, 'not_found', `No route ${method} ${path}`),

  // Gateway and JWT
  noApiKey: () => err(401, 'no_authorization', 'No API key found in request'),
  invalidApiKey: () => err(401, 'no_authorization', 'Invalid API key'),
  noAuthorization: () => err(401, 'no_authorization', 'This endpoint requires a valid Bearer token'),
  badJwt: (reason: string) =>
    err(403, 'bad_jwt', `invalid JWT: unable to parse or verify signature, ${reason}`),
  badJwtClaim: (message: string) => err(403, 'bad_jwt', message),
  notAdmin: () => err(403, 'not_admin', 'User not allowed'),
  sessionNotFound: () => err(403, 'session_not_found', 'Session from session_id claim in JWT does not exist'),
  userFromJwtNotFound: () => err(403, 'user_not_found', 'User from sub claim in JWT does not exist'),

  // Accounts
  signupDisabled: () => err(422, 'signup_disabled', 'Signups not allowed for this instance'),
  otpSignupDisabled: () => err(422, 'otp_disabled', 'Signups not allowed for otp'),
  emailExists: () => err(422, 'email_exists', 'A user with this email address has already been registered'),
  userAlreadyExists: () => err(422, 'user_already_exists', 'User already registered'),
  phoneDisabled: (what: 'signups' | 'logins') =>
    err(422, 'phone_provider_disabled', `Phone ${what} are disabled`),
  anonymousDisabled: () => err(422, 'anonymous_provider_disabled', 'Anonymous sign-ins are disabled'),
  anonymousNotAllowed: () =>
    err(403, 'no_authorization', 'Anonymous user not allowed to perform these actions'),
  userNotFound: () => err(404, 'user_not_found', 'User not found'),
  userNotFoundByEmail: () => err(404, 'user_not_found', 'User with this email not found'),
  userBanned: (status: 400 | 403 = 400) => err(status, 'user_banned', 'User is banned'),
  invalidCredentials: () => err(400, 'invalid_credentials', 'Invalid login credentials'),
  unsupportedGrant: () => err(400, 'invalid_credentials', 'unsupported_grant_type'),
  emailNotConfirmed: () => err(400, 'email_not_confirmed', 'Email not confirmed'),
  emailNotConfirmedForbidden: () => err(403, 'email_not_confirmed', 'Email not confirmed'),
  weakPassword: (message: string, reasons: string[]) => err(422, 'weak_password', message, { reasons }),
  passwordTooLong: (max: number) =>
    err(400, 'validation_failed', `Password cannot be longer than ${max} characters`),
  samePassword: () => err(422, 'same_password', 'New password should be different from the old password.'),
  reauthenticationNeeded: () =>
    err(400, 'reauthentication_needed', 'Password update requires reauthentication'),
  reauthenticationNotValid: () =>
    err(400, 'reauthentication_not_valid', 'Reauthentication nonce is invalid or has expired'),
  reauthenticationNoEmail: () =>
    err(422, 'validation_failed', 'Reauthentication requires the user to have an email or a phone number'),

  // Tokens and sessions
  refreshTokenRequired: () => err(400, 'validation_failed', 'refresh_token required'),
  refreshTokenNotFound: () =>
    err(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found'),
  refreshTokenAlreadyUsed: () =>
    err(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used'),
  refreshUserBanned: () => err(400, 'user_banned', 'Invalid Refresh Token: User Banned'),
  sessionExpired: () => err(400, 'session_expired', 'Invalid Refresh Token: Session Expired'),
  linkExpired: () => err(403, 'otp_expired', 'Email link is invalid or has expired'),
  otpExpired: () => err(403, 'otp_expired', 'Token has expired or is invalid'),
  flowStateNotFound: () => err(404, 'flow_state_not_found', 'invalid flow state, no valid flow state found'),
  flowStateExpired: () => err(422, 'flow_state_expired', 'invalid flow state, flow state has expired'),
  badCodeVerifier: () =>
    err(400, 'bad_code_verifier', 'code challenge does not match previously saved code verifier'),
  noFlowStateForLink: () => err(400, 'flow_state_not_found', 'No associated flow state found'),

  // Providers
  web3Disabled: () => err(422, 'web3_provider_disabled', 'Web3 provider is disabled'),
  samlDisabled: () => err(404, 'saml_provider_disabled', 'SAML 2.0 is disabled'),
  providerDisabled: () => err(400, 'validation_failed', 'Unsupported provider: provider is not enabled'),
  /**
   * GoTrue's OAuthError (the id_token grant): 400 with `{error, error_description}` in every API
   * version, no error code (supabase/auth internal/api/apierrors OAuthError, token_oidc.go).
   */
  oauth: (error: 'invalid request' | 'invalid nonce', description: string) =>
    new ApiError(400, error, description, { details: { oauth: true } }),
  badOAuthState: () => err(400, 'bad_oauth_state', 'OAuth state parameter is invalid or has expired'),
  badOAuthCallback: (message: string) => err(400, 'bad_oauth_callback', message),
  providerEmailNeedsVerification: () =>
    err(
      422,
      'provider_email_needs_verification',
      'Unverified email with the provider: sign in with email and password first, then link the account',
    ),
  manualLinkingDisabled: () => err(404, 'manual_linking_disabled', 'Manual linking is disabled'),
  identityNotFound: () => err(404, 'identity_not_found', "Identity doesn't exist"),
  singleIdentity: () =>
    err(422, 'single_identity_not_deletable', 'User must have at least 1 identity after unlinking'),
  identityAlreadyExists: () =>
    err(422, 'identity_already_exists', 'Identity is already linked to another user'),

  // Rate limits
  overRequestRateLimit: (retryAfter: number) =>
    new ApiError(429, 'over_request_rate_limit', 'Request rate limit reached', {
      headers: { 'retry-after': String(retryAfter) },
    }),
  overEmailSendRateLimit: (retryAfter: number) =>
    new ApiError(429, 'over_email_send_rate_limit', 'Email rate limit exceeded', {
      headers: { 'retry-after': String(retryAfter) },
    }),
  signInThrottled: (seconds: number) =>
    new ApiError(
      429,
      'over_request_rate_limit',
      `Too many failed sign-in attempts for this account. Please wait ${seconds} seconds and try again.`,
      { headers: { 'retry-after': String(seconds) } },
    ),
  mailTooFrequent: (seconds: number) =>
    new ApiError(
      429,
      'over_email_send_rate_limit',
      `For security purposes, you can only request this after ${seconds} seconds.`,
      { headers: { 'retry-after': String(seconds) } },
    ),

  // MFA
  factorNotFound: () => err(404, 'mfa_factor_not_found', 'Factor not found'),
  challengeNotFound: () =>
    err(404, 'mfa_factor_not_found', 'MFA factor with the provided challenge ID not found'),
  challengeExpired: (id: string) =>
    err(
      422,
      'mfa_challenge_expired',
      `${id} has expired, verify against another challenge or create a new challenge.`,
    ),
  challengeIpMismatch: () =>
    err(422, 'mfa_ip_address_mismatch', 'Challenge and verify IP addresses mismatch.'),
  totpInvalid: () => err(422, 'mfa_verification_failed', 'Invalid TOTP code entered'),
  insufficientAal: (message: string) => err(422, 'insufficient_aal', message),
  aal2RequiredForCredentials: () =>
    err(401, 'insufficient_aal', 'AAL2 session is required to update email or password when MFA is enabled.'),
  tooManyFactors: () =>
    err(
      422,
      'too_many_enrolled_mfa_factors',
      'Maximum number of verified factors reached, unenroll to continue',
    ),
  factorNameConflict: (name: string) =>
    err(
      422,
      'mfa_factor_name_conflict',
      `A factor with the friendly name "${name}" for this user already exists`,
    ),
  phoneMfaUnavailable: () =>
    err(
      422,
      'mfa_phone_enroll_not_enabled',
      'MFA enrollment with a phone is not available: no SMS provider is configured',
    ),
  webauthnMfaUnavailable: () =>
    err(422, 'mfa_webauthn_enroll_not_enabled', 'MFA enroll is disabled for WebAuthn'),
  webauthnVerifyDisabled: () =>
    err(422, 'mfa_webauthn_verify_not_enabled', 'MFA verification is disabled for WebAuthn'),
  webauthnInvalidResponse: () => err(422, 'mfa_verification_failed', 'Invalid WebAuthn credential_response'),
  passkeyDisabled: () => err(404, 'passkey_disabled', 'Passkeys are disabled'),
  tooManyPasskeys: () => err(422, 'too_many_passkeys', 'Maximum number of passkeys reached'),
  passkeyExists: () => err(422, 'webauthn_credential_exists', 'This credential is already registered'),
  passkeyNotFound: () => err(404, 'validation_failed', 'Passkey not found'),
  passkeyAal2Required: () =>
    err(403, 'insufficient_aal', 'AAL2 session is required to manage passkeys when MFA is enabled'),
  webauthnChallengeNotFound: () =>
    err(400, 'webauthn_challenge_not_found', 'Challenge not found or already used'),
  webauthnChallengeExpired: () => err(400, 'webauthn_challenge_expired', 'Challenge has expired'),
  webauthnVerificationFailed: (message = 'Credential verification failed') =>
    err(400, 'webauthn_verification_failed', message),
  factorTypeInvalid: () => err(400, 'validation_failed', 'factor_type needs to be totp, phone or webauthn'),

  // Server side
  conflict: (message: string) => err(409, 'conflict', message),
  timeout: () =>
    err(504, 'request_timeout', 'Processing this request timed out, please retry after a moment.'),
  unexpected: (message = 'Unexpected failure, please check server logs for more information') =>
    err(500, 'unexpected_failure', message),
} as const;

/** PostgreSQL errors the auth service can cause with odd input, translated in this one place. */
function fromDatabaseError(error: { code?: unknown; constraint?: unknown }): ApiError | undefined {
  const code = typeof error.code === 'string' ? error.code : undefined;
  if (!code || !/^[0-9A-Z]{5}$/.test(code)) return undefined;
  if (code === '23505') {
    const constraint = String(error.constraint ?? '');
    if (constraint === 'users_email_partial_key') return authErrors.emailExists();
    if (constraint.startsWith('identities_')) return authErrors.identityAlreadyExists();
    if (constraint === 'mfa_factors_user_friendly_name_unique') return authErrors.factorNameConflict('');
    return authErrors.conflict('The request conflicts with existing data');
  }
  // A row elsewhere still points at this one (e.g. a product table without ON DELETE CASCADE).
  if (code === '23503') {
    return authErrors.conflict('The user is still referenced by other data; soft-delete it instead');
  }
  // Data exceptions (class 22): text the database cannot store, values out of range.
  if (code.startsWith('22'))
    return authErrors.validation('Invalid input: the request contains an invalid value');
  if (code === '57014') return authErrors.timeout();
  if (code === '40001' || code === '40P01') {
    return authErrors.conflict('Concurrent requests on the same data, please retry');
  }
  return undefined;
}

/** Anything thrown by an auth route, as the ApiError we answer with. */
export function toAuthError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const fastifyError = error as Partial<FastifyError>;
  if (typeof fastifyError.code === 'string' && fastifyError.code.startsWith('FST_ERR_CTP_')) {
    if (fastifyError.statusCode === 413) {
      return new ApiError(413, 'validation_failed', 'Request body is too large', { cause: error });
    }
    const detail =
      fastifyError.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
        ? 'unsupported content type'
        : fastifyError.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
          ? 'unexpected end of JSON input'
          : 'invalid JSON';
    return new ApiError(400, 'bad_json', `Could not parse request body as JSON: ${detail}`, { cause: error });
  }
  if (error instanceof SyntaxError) {
    return new ApiError(400, 'bad_json', 'Could not parse request body as JSON: invalid JSON', {
      cause: error,
    });
  }
  // Busy is said as it is (503, Retry-After), not hidden in the unexpected failure below.
  if (error instanceof DatabaseBusyError) return toApiError(error);
  const fromDb = fromDatabaseError(error as { code?: unknown; constraint?: unknown });
  if (fromDb) return new ApiError(fromDb.status, fromDb.code, fromDb.message, { cause: error });
  const generic = toApiError(error);
  if (generic.status >= 500) return new ApiError(500, 'unexpected_failure', authErrors.unexpected().message);
  return generic;
}

// ---------------------------------------------------------------------------------------------
// Wire format. GoTrue answers in two shapes, chosen by the request's X-Supabase-Api-Version header
// (auth-js always sends 2024-01-01): {code: <error code>, message} with the header echoed, or the
// original {code: <status>, error_code, msg}. See docs/decisions/011-auth-error-format.md.
// ---------------------------------------------------------------------------------------------

export const API_VERSION_HEADER = 'x-supabase-api-version';
export const API_VERSION_2024 = '2024-01-01';

/** The API version a request asks for: '2024-01-01' when it names that date or a later one. */
export function requestedApiVersion(request: Pick<FastifyRequest, 'headers'>): string | undefined {
  const raw = request.headers[API_VERSION_HEADER];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const date = Date.parse(`${value}T00:00:00Z`);
  if (Number.isNaN(date) || date < Date.parse(`${API_VERSION_2024}T00:00:00Z`)) return undefined;
  return API_VERSION_2024;
}

function isOAuthError(error: ApiError): boolean {
  return (error.details as { oauth?: unknown } | null)?.oauth === true;
}

export function renderAuthError(error: ApiError, version: string | undefined): Record<string, unknown> {
  if (isOAuthError(error)) return { error: error.code, error_description: error.message };
  const reasons = (error.details as { reasons?: string[] } | null)?.reasons;
  const body: Record<string, unknown> =
    version === API_VERSION_2024
      ? { code: error.code, message: error.message }
      : { code: error.status, error_code: error.code, msg: error.message };
  if (error.code === 'weak_password') body.weak_password = { reasons: reasons ?? [] };
  return body;
}

export function sendAuthError(request: FastifyRequest, reply: FastifyReply, error: ApiError): FastifyReply {
  const version = requestedApiVersion(request);
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  if (version) reply.header(API_VERSION_HEADER, version);
  if (!isOAuthError(error)) reply.header('x-sb-error-code', error.code);
  return reply
    .status(error.status)
    .type('application/json; charset=utf-8')
    .send(renderAuthError(error, version));
}
