import type { FactorRow, IdentityRow, UserRow } from './db.ts';
import { toIso } from './time.ts';

/**
 * The JSON shapes GoTrue answers with (models.User, models.Identity, models.Factor), field for field
 * and in the same order; `omitempty` fields are left out when empty. Secrets (password hash, TOTP
 * secret, token digests) never appear.
 */

type Json = Record<string, unknown>;

function put(target: Json, key: string, value: unknown): void {
  if (value !== undefined && value !== null && value !== '') target[key] = value;
}

export function identityJson(row: IdentityRow): Json {
  const json: Json = {
    identity_id: row.identity_id,
    id: row.id,
    user_id: row.user_id,
  };
  if (row.identity_data && Object.keys(row.identity_data).length > 0) json.identity_data = row.identity_data;
  json.provider = row.provider;
  put(json, 'last_sign_in_at', toIso(row.last_sign_in_at));
  json.created_at = toIso(row.created_at) ?? null;
  json.updated_at = toIso(row.updated_at) ?? null;
  put(json, 'email', row.email);
  return json;
}

export function factorJson(row: FactorRow): Json {
  const json: Json = {
    id: row.id,
  };
  put(json, 'friendly_name', row.friendly_name);
  json.factor_type = row.factor_type;
  json.status = row.status;
  json.created_at = toIso(row.created_at);
  json.updated_at = toIso(row.updated_at);
  json.last_challenged_at = toIso(row.last_challenged_at) ?? null;
  json.phone = row.phone ?? '';
  return json;
}

export function userJson(row: UserRow): Json {
  const json: Json = {
    id: row.id,
    aud: row.aud ?? '',
    role: row.role ?? '',
    email: row.email ?? '',
  };
  put(json, 'email_confirmed_at', toIso(row.email_confirmed_at));
  put(json, 'invited_at', toIso(row.invited_at));
  json.phone = row.phone ?? '';
  put(json, 'phone_confirmed_at', toIso(row.phone_confirmed_at));
  put(json, 'confirmation_sent_at', toIso(row.confirmation_sent_at));
  put(json, 'confirmed_at', toIso(row.confirmed_at));
  put(json, 'recovery_sent_at', toIso(row.recovery_sent_at));
  put(json, 'new_email', row.email_change);
  put(json, 'email_change_sent_at', toIso(row.email_change_sent_at));
  put(json, 'new_phone', row.phone_change);
  put(json, 'phone_change_sent_at', toIso(row.phone_change_sent_at));
  put(json, 'reauthentication_sent_at', toIso(row.reauthentication_sent_at));
  put(json, 'last_sign_in_at', toIso(row.last_sign_in_at));
  json.app_metadata = row.raw_app_meta_data ?? {};
  json.user_metadata = row.raw_user_meta_data ?? {};
  if (row.factors.length > 0) json.factors = row.factors.map(factorJson);
  json.identities = row.identities.map(identityJson);
  json.created_at = toIso(row.created_at);
  json.updated_at = toIso(row.updated_at);
  put(json, 'banned_until', toIso(row.banned_until));
  put(json, 'deleted_at', toIso(row.deleted_at));
  json.is_anonymous = row.is_anonymous;
  return json;
}

export interface SessionTokens {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  expiresAt: number;
}

export function sessionJson(tokens: SessionTokens, user: UserRow, extra: Json = {}): Json {
  return {
    access_token: tokens.accessToken,
    token_type: 'bearer',
    expires_in: tokens.expiresIn,
    expires_at: tokens.expiresAt,
    refresh_token: tokens.refreshToken,
    user: userJson(user),
    ...extra,
  };
}
