/**
 * All of the auth service's SQL, one file per part under `db/` (issue 38), re-exported here so the
 * service's modules import one place. Every value is a bind parameter; the service runs as the
 * connecting (owner) role, as GoTrue runs as supabase_auth_admin, so no request scope applies.
 */

export * from './db/audit.ts';
export * from './db/mfa.ts';
export * from './db/passkeys.ts';
export * from './db/sessions.ts';
export * from './db/throttles.ts';
export * from './db/tokens.ts';
export * from './db/users.ts';
