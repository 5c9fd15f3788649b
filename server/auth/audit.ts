import type { Queryable } from '../db/driver.ts';
import type { RequestMeta } from './auth.ts';
import { insertAuditEntry, type UserRow } from './db.ts';

export type AuditAction =
  | 'login'
  | 'logout'
  | 'invite_accepted'
  | 'user_signedup'
  | 'user_invited'
  | 'user_deleted'
  | 'user_modified'
  | 'user_recovery_requested'
  | 'user_reauthenticate_requested'
  | 'user_confirmation_requested'
  | 'user_repeated_signup'
  | 'user_updated_password'
  | 'token_revoked'
  | 'token_refreshed'
  | 'factor_in_progress'
  | 'factor_unenrolled'
  | 'challenge_created'
  | 'verification_attempted'
  | 'factor_deleted'
  | 'identity_unlinked'
  | 'passkey_created'
  | 'passkey_updated'
  | 'passkey_deleted';

const LOG_TYPES: Record<AuditAction, string> = {
  login: 'account',
  logout: 'account',
  invite_accepted: 'account',
  user_signedup: 'team',
  user_invited: 'team',
  user_deleted: 'team',
  user_modified: 'user',
  user_recovery_requested: 'user',
  user_reauthenticate_requested: 'user',
  user_confirmation_requested: 'user',
  user_repeated_signup: 'user',
  user_updated_password: 'user',
  token_revoked: 'token',
  token_refreshed: 'token',
  factor_in_progress: 'factor',
  factor_unenrolled: 'factor',
  challenge_created: 'factor',
  verification_attempted: 'factor',
  factor_deleted: 'factor',
  identity_unlinked: 'account',
  passkey_created: 'user',
  passkey_updated: 'user',
  passkey_deleted: 'user',
};

/** An entry in auth.audit_log_entries, in GoTrue's payload shape. */
export function audit(
  tx: Queryable,
  meta: RequestMeta,
  actor: Pick<UserRow, 'id' | 'email'> | { id: string; email: string | null },
  action: AuditAction,
  traits?: Record<string, unknown>,
): Promise<void> {
  return insertAuditEntry(
    tx,
    {
      actor_id: actor.id,
      actor_username: actor.email ?? '',
      actor_via_sso: false,
      log_type: LOG_TYPES[action],
      action,
      ...(traits ? { traits } : {}),
    },
    meta.ip,
  );
}
