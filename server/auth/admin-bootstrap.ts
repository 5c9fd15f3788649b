import type { Queryable } from '../db/driver.ts';
import { type AuthDeps, audit, type RequestMeta } from './context.ts';
import {
  bootstrapRevoked,
  type ConsumedToken,
  grantAdminRole,
  hasAdminRole,
  resetSignInMethods,
  syncProviders,
  type UserRow,
} from './db.ts';

/**
 * The admin bootstrap of spec §4 (decision 093): the SUPPORT_EMAIL account is made an administrator
 * once its owner proves the mailbox — by following a link (or typing a code) that this server mailed
 * to that address: a sign-up or invite confirmation, a magic link or a password reset. Nothing else
 * counts: not an autoconfirmed sign-up, not an email change to the address, not an address the admin
 * API marked confirmed, not a social provider's word, not a link from admin/generate_link (handed to
 * whoever holds the service key, never mailed).
 *
 * Whoever created the account may not be whoever owns the mailbox (anyone can sign up with any address
 * and wait for the owner to click). So at the moment of the grant the account keeps only what the
 * proof established: its password, sessions, other identities and MFA factors are removed, and the
 * owner chooses a password in the session the link opened (the password-reset link lands there).
 *
 * An address an operator revoked with `npm run admin -- revoke` is never bootstrapped again; the
 * operator command (`server/cli/admin.ts`) grants and revokes without any of this.
 */
export async function bootstrapAdminOnProof(
  tx: Queryable,
  deps: AuthDeps,
  user: UserRow,
  token: ConsumedToken,
  meta: RequestMeta,
): Promise<boolean> {
  const support = deps.config.supportEmail.toLowerCase();
  if (!token.mailed || token.token_type.startsWith('email_change')) return false;
  if (token.relates_to.toLowerCase() !== support || user.email?.toLowerCase() !== support) return false;
  if (await hasAdminRole(tx, user.id)) return false;
  if (await bootstrapRevoked(tx, support)) return false;
  await resetSignInMethods(tx, user.id);
  await syncProviders(tx, user.id);
  await grantAdminRole(tx, user.id);
  await audit(tx, meta, user, 'user_modified', { admin_bootstrap: true });
  return true;
}
