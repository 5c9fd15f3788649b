import type { Queryable } from '../db/driver.ts';
import { audit } from './audit.ts';
import type { AuthDeps, RequestMeta } from './auth.ts';
import {
  type AdminRow,
  bootstrapRevoked,
  type ConsumedToken,
  findUserByEmail,
  grantAdminRole,
  hasAdminRole,
  insertIdentity,
  listAdmins,
  resetSignInMethods,
  revokeAdminRole,
  setBootstrapRevoked,
  syncProviders,
  type UserRow,
} from './db.ts';

/**
 * The admin bootstrap of product §admin-bootstrap (decision 093): the SUPPORT_EMAIL account is made an
 * administrator once its owner proves the mailbox — by following a link (or typing a code) that this server
 * mailed to that address: a sign-up or invite confirmation, a magic link or a password reset. Nothing else
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
  if (!user.identities.some((identity) => identity.provider === 'email')) {
    // An account made by social sign-in: the mailbox is now its way in.
    await insertIdentity(tx, {
      userId: user.id,
      provider: 'email',
      providerId: user.id,
      data: { sub: user.id, email: user.email, email_verified: true, phone_verified: false },
    });
  }
  await syncProviders(tx, user.id);
  await grantAdminRole(tx, user.id);
  await audit(tx, meta, user, 'user_modified', { admin_bootstrap: true });
  return true;
}

// ----------------------------------------------------------------------------------------------
// The operator's command (`npm run admin`, server/cli/admin.ts): roles by address, no mail involved.
// ----------------------------------------------------------------------------------------------

export type RoleChange = 'granted' | 'already' | 'revoked' | 'not-admin' | 'no-account';

const OPERATOR = { id: '00000000-0000-0000-0000-000000000000', email: 'operator' };
const NO_CLIENT: RequestMeta = { ip: '', userAgent: 'npm run admin' };

/** Makes the account with this address an administrator; the address may be bootstrapped again. */
export async function grantAdminByEmail(tx: Queryable, email: string): Promise<RoleChange> {
  const user = await findUserByEmail(tx, email.toLowerCase(), true);
  if (!user) return 'no-account';
  await setBootstrapRevoked(tx, email, false);
  if (await hasAdminRole(tx, user.id)) return 'already';
  await grantAdminRole(tx, user.id);
  await audit(tx, NO_CLIENT, OPERATOR, 'user_modified', { user_id: user.id, admin_role: 'granted' });
  return 'granted';
}

/** Takes the role away, and keeps the mail bootstrap from giving it back to this address. */
export async function revokeAdminByEmail(tx: Queryable, email: string): Promise<RoleChange> {
  await setBootstrapRevoked(tx, email, true);
  const user = await findUserByEmail(tx, email.toLowerCase(), true);
  if (!user) return 'no-account';
  if (!(await revokeAdminRole(tx, user.id))) return 'not-admin';
  await audit(tx, NO_CLIENT, OPERATOR, 'user_modified', { user_id: user.id, admin_role: 'revoked' });
  return 'revoked';
}

export { type AdminRow, listAdmins };
