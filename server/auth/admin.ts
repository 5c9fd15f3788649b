import { randomUUID } from 'node:crypto';
import { METADATA_MAX_BYTES, mergeMetadata } from './accounts.ts';
import { audit } from './audit.ts';
import type { AuthDeps, RequestMeta } from './auth.ts';
import {
  deleteFactor,
  deletePasskey,
  deleteSessionsOfUser,
  deleteUser,
  downgradeSessionsOfFactor,
  findPasskey,
  findUserByEmail,
  findUserById,
  insertIdentity,
  insertUser,
  listUsers,
  passkeysOfUser,
  softDeleteUser,
  syncProviders,
  type UserChanges,
  type UserRow,
  updateIdentityData,
  updateUser,
} from './db.ts';
import { prepareMail } from './emails.ts';
import { authErrors } from './errors.ts';
import { type Body, checkJsonValue, isUuid, normalizeEmail } from './input.ts';
import { passkeyListItem } from './passkeys.ts';
import { assertStrongPassword, hashPassword } from './passwords.ts';
import { factorJson, userJson } from './serialize.ts';

/**
 * The admin API (service-role key only): invitations, generated links, and user management, as
 * GoTrue's admin.go, invite.go and mail.go (generate_link) do it.
 */

type Json = Record<string, unknown>;

const ADMIN = { id: '00000000-0000-0000-0000-000000000000', email: 'service_role' };

const DURATION_UNITS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** Go's time.ParseDuration (what GoTrue's ban_duration takes): "24h", "1h30m", "876000h". */
export function parseGoDuration(value: string): number | undefined {
  if (!/^(\d+(\.\d+)?(ns|us|µs|μs|ms|s|m|h))+$/.test(value)) return undefined;
  let total = 0;
  for (const [, amount, , unit] of value.matchAll(/(\d+(\.\d+)?)(ns|us|µs|μs|ms|s|m|h)/g)) {
    total += Number(amount) * (DURATION_UNITS[unit as string] as number);
  }
  return Number.isFinite(total) ? total : undefined;
}

/** ban_duration → banned_until: "none" lifts a ban; a duration bans from now on. */
function banUntil(duration: string): string | null {
  if (duration === 'none') return null;
  const ms = parseGoDuration(duration);
  if (ms === undefined)
    throw authErrors.validation(`invalid format for ban duration: ${duration.slice(0, 40)}`);
  const until = Date.now() + ms;
  if (until > Date.UTC(9999, 0, 1)) throw authErrors.validation('ban duration is too long');
  return new Date(until).toISOString();
}

function checkRole(role: string): string {
  // The service key is the only way past row-level security; no user token may claim its role.
  if (role === 'service_role' || role === 'supabase_admin' || !/^[a-z_][a-z0-9_]{0,62}$/.test(role)) {
    throw authErrors.validation('role must be a lower-case role name other than service_role');
  }
  return role;
}

async function loadUser(deps: AuthDeps, id: string): Promise<UserRow> {
  if (!isUuid(id)) throw authErrors.userNotFound();
  const user = await findUserById(deps.app.db, id);
  if (!user) throw authErrors.userNotFound();
  return user;
}

/** The admin user attributes of a request body (auth-js AdminUserAttributes). */
export function adminUserInput(body: Body): AdminUserInput {
  return {
    id: body.string('id', 64),
    email: body.string('email', 320),
    phone: body.string('phone', 64),
    password: body.has('password') ? body.string('password', 4096) : undefined,
    passwordHash: body.string('password_hash', 512),
    emailConfirm: body.bool('email_confirm'),
    userMetadata: body.object('user_metadata'),
    appMetadata: body.object('app_metadata'),
    banDuration: body.string('ban_duration', 32),
    role: body.string('role', 64),
  };
}

export interface AdminUserInput {
  id: string;
  email: string;
  phone: string;
  password: string | undefined;
  passwordHash: string;
  emailConfirm: boolean | undefined;
  userMetadata: Json | undefined;
  appMetadata: Json | undefined;
  banDuration: string;
  role: string;
}

export async function createUser(deps: AuthDeps, input: AdminUserInput, meta: RequestMeta): Promise<Json> {
  if (input.email === '' && input.phone !== '') throw authErrors.phoneDisabled('signups');
  if (input.email === '')
    throw authErrors.validation('Cannot create a user without either an email or phone');
  const email = normalizeEmail(input.email);
  if (input.id !== '' && !isUuid(input.id)) throw authErrors.validation('id must be a UUID');
  let passwordHash = '';
  if (input.passwordHash !== '') {
    if (
      !/^\$argon2(id|i|d)\$v=\d+\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/.test(input.passwordHash)
    ) {
      throw authErrors.validation('password_hash must be an argon2 hash in PHC format');
    }
    passwordHash = input.passwordHash;
  } else if (input.password !== undefined && input.password !== '') {
    assertStrongPassword(input.password, deps.config.auth);
    passwordHash = await hashPassword(input.password);
  }
  const confirmed = input.emailConfirm === true;
  const role = input.role === '' ? 'authenticated' : checkRole(input.role);
  const bannedUntil = input.banDuration === '' ? null : banUntil(input.banDuration);
  const id = input.id === '' ? randomUUID() : input.id.toLowerCase();
  const identity = { sub: id, email, email_verified: confirmed, phone_verified: false };
  // As GoTrue: the metadata as given; confirming the address adds only `email_verified` (User.Confirm).
  const userMetadata = { ...(input.userMetadata ?? {}), ...(confirmed ? { email_verified: true } : {}) };
  const appMetadata = { ...(input.appMetadata ?? {}), provider: 'email', providers: ['email'] };
  checkJsonValue('user_metadata', userMetadata, METADATA_MAX_BYTES);
  checkJsonValue('app_metadata', appMetadata, METADATA_MAX_BYTES);

  const user = await deps.app.db.transaction(async (tx) => {
    if (await findUserByEmail(tx, email)) throw authErrors.emailExists();
    if (await findUserById(tx, id)) throw authErrors.validation('A user with this id already exists');
    await insertUser(tx, {
      id,
      email,
      encryptedPassword: passwordHash,
      emailConfirmed: confirmed,
      invited: false,
      appMetadata,
      userMetadata,
      role,
      bannedUntil,
    });
    await insertIdentity(tx, { userId: id, provider: 'email', providerId: id, data: identity });
    await audit(tx, meta, ADMIN, 'user_signedup', { user_id: id, user_email: email, provider: 'email' });
    return (await findUserById(tx, id)) as UserRow;
  });
  return userJson(user);
}

export async function getUser(deps: AuthDeps, id: string): Promise<Json> {
  return userJson(await loadUser(deps, id));
}

export async function updateUserById(
  deps: AuthDeps,
  id: string,
  input: AdminUserInput,
  meta: RequestMeta,
): Promise<Json> {
  const existing = await loadUser(deps, id);
  if (input.phone !== '' && input.phone !== existing.phone) throw authErrors.phoneDisabled('signups');
  const changes: UserChanges = {};
  const email = input.email === '' ? undefined : normalizeEmail(input.email);
  if (input.password !== undefined && input.password !== '') {
    assertStrongPassword(input.password, deps.config.auth);
    changes.encryptedPassword = await hashPassword(input.password);
  }
  if (input.passwordHash !== '')
    throw authErrors.validation('password_hash can only be set when creating a user');
  if (input.role !== '') changes.role = checkRole(input.role);
  if (input.banDuration !== '') changes.bannedUntil = banUntil(input.banDuration);
  if (input.appMetadata !== undefined) {
    changes.appMetadata = mergeMetadata(existing.raw_app_meta_data, input.appMetadata);
    checkJsonValue('app_metadata', changes.appMetadata, METADATA_MAX_BYTES);
  }
  let userMetadata = existing.raw_user_meta_data ?? {};
  if (input.userMetadata !== undefined) {
    userMetadata = mergeMetadata(userMetadata, input.userMetadata);
  }
  if (email !== undefined && email !== existing.email) {
    // GoTrue updates the email identity's data, not user_metadata.
    changes.email = email;
  }
  if (input.emailConfirm === true && !existing.email_confirmed_at) {
    changes.emailConfirmedNow = true;
    userMetadata = mergeMetadata(userMetadata, { email_verified: true });
  }
  if (input.emailConfirm === false && existing.email_confirmed_at) changes.emailUnconfirm = true;
  if (input.userMetadata !== undefined || changes.email !== undefined || changes.emailConfirmedNow) {
    checkJsonValue('user_metadata', userMetadata, METADATA_MAX_BYTES);
    changes.userMetadata = userMetadata;
  }

  const user = await deps.app.db.transaction(async (tx) => {
    if (changes.email) {
      const taken = await findUserByEmail(tx, changes.email);
      if (taken && taken.id !== id) throw authErrors.emailExists();
    }
    // GoTrue: an anonymous user given a confirmed address becomes permanent (decision 148).
    const becomesPermanent = existing.is_anonymous && email !== undefined && input.emailConfirm === true;
    if (becomesPermanent) changes.isAnonymous = false;
    await updateUser(tx, id, changes);
    const hasEmailIdentity = existing.identities.some((identity) => identity.provider === 'email');
    if (changes.email && !hasEmailIdentity) {
      // An account without an email identity (an anonymous one) gets one with its new address.
      await insertIdentity(tx, {
        userId: id,
        provider: 'email',
        providerId: id,
        data: {
          sub: id,
          email: changes.email,
          email_verified: input.emailConfirm === true,
          phone_verified: false,
        },
      });
      await syncProviders(tx, id);
    } else if (changes.email || changes.emailConfirmedNow) {
      await updateIdentityData(tx, id, 'email', {
        ...(changes.email ? { email: changes.email } : {}),
        ...(changes.emailConfirmedNow ? { email_verified: true } : {}),
      });
    }
    // A new password or a ban ends the user's sessions.
    if (changes.encryptedPassword || changes.bannedUntil) await deleteSessionsOfUser(tx, id);
    await audit(tx, meta, ADMIN, 'user_modified', { user_id: id, user_email: existing.email });
    return (await findUserById(tx, id)) as UserRow;
  });
  return userJson(user);
}

export async function deleteUserById(
  deps: AuthDeps,
  id: string,
  soft: boolean,
  meta: RequestMeta,
): Promise<Json> {
  const user = await loadUser(deps, id);
  await deps.app.db.transaction(async (tx) => {
    await audit(tx, meta, ADMIN, 'user_deleted', { user_id: id, user_email: user.email, soft });
    if (soft) await softDeleteUser(tx, id);
    else await deleteUser(tx, id);
  });
  return {};
}

export async function listUserPage(
  deps: AuthDeps,
  query: { page: string; perPage: string; filter: string; sort: string },
): Promise<{ body: Json; total: number; page: number; perPage: number }> {
  const parse = (value: string, fallback: number, max: number, name: string) => {
    if (value === '') return fallback;
    if (!/^\d{1,9}$/.test(value) || Number(value) < 1)
      throw authErrors.validation(`Bad Pagination Parameters: ${name}`);
    return Math.min(Number(value), max);
  };
  const page = parse(query.page, 1, 1_000_000, 'page');
  const perPage = parse(query.perPage, 50, 1000, 'per_page');
  const ascending = /^created_at\s+asc$/i.test(query.sort.trim());
  const { rows, total } = await listUsers(deps.app.db, { page, perPage, filter: query.filter, ascending });
  return { body: { users: rows.map(userJson), aud: 'authenticated' }, total, page, perPage };
}

export async function listFactors(deps: AuthDeps, id: string): Promise<unknown[]> {
  const user = await loadUser(deps, id);
  return user.factors.map(factorJson);
}

export async function deleteFactorById(
  deps: AuthDeps,
  id: string,
  factorId: string,
  meta: RequestMeta,
): Promise<Json> {
  const user = await loadUser(deps, id);
  const factor = user.factors.find((candidate) => candidate.id === factorId.toLowerCase());
  if (!isUuid(factorId) || !factor) throw authErrors.factorNotFound();
  await deps.app.db.transaction(async (tx) => {
    await downgradeSessionsOfFactor(tx, factor.id);
    await deleteFactor(tx, id, factor.id);
    await audit(tx, meta, ADMIN, 'factor_deleted', { user_id: id, factor_id: factor.id });
  });
  return factorJson(factor);
}

// ----------------------------------------------------------------------------------------------
// Invitations and generated links
// ----------------------------------------------------------------------------------------------

export async function invite(
  deps: AuthDeps,
  input: { email: string; data: Json | undefined; redirectTo: string | undefined },
  meta: RequestMeta,
): Promise<Json> {
  const email = normalizeEmail(input.email);
  const data = input.data ?? {};
  checkJsonValue('data', data, METADATA_MAX_BYTES);
  const redirectTo = deps.redirects.resolve(input.redirectTo);
  await deps.limits.mailBudget();
  const result = await deps.app.db.transaction(async (tx) => {
    const existing = await findUserByEmail(tx, email, true);
    if (existing?.email_confirmed_at) throw authErrors.emailExists();
    const userId = existing?.id ?? (await createInvitedUser(tx, email, data));
    const prepared = await prepareMail(tx, deps, { type: 'invite', userId, to: email, email, redirectTo });
    await audit(tx, meta, ADMIN, 'user_invited', { user_id: userId, user_email: email });
    return { user: (await findUserById(tx, userId)) as UserRow, message: prepared.message };
  });
  deps.mail.enqueue(result.message);
  return userJson(result.user);
}

async function createInvitedUser(
  tx: Parameters<typeof insertUser>[0],
  email: string,
  data: Json,
): Promise<string> {
  const id = randomUUID();
  const identity = { sub: id, email, email_verified: false, phone_verified: false };
  await insertUser(tx, {
    id,
    email,
    encryptedPassword: '',
    emailConfirmed: false,
    invited: true,
    appMetadata: { provider: 'email', providers: ['email'] },
    userMetadata: { ...data },
  });
  await insertIdentity(tx, { userId: id, provider: 'email', providerId: id, data: identity });
  return id;
}

const LINK_TYPES = [
  'signup',
  'invite',
  'magiclink',
  'recovery',
  'email_change_current',
  'email_change_new',
] as const;

export async function generateLink(
  deps: AuthDeps,
  input: {
    type: string;
    email: string;
    newEmail: string;
    password: string;
    data: Json | undefined;
    redirectTo: string | undefined;
  },
  meta: RequestMeta,
): Promise<Json> {
  const type = LINK_TYPES.find((candidate) => candidate === input.type);
  if (!type)
    throw authErrors.validation(`Invalid email action link type requested: ${input.type.slice(0, 40)}`);
  const email = normalizeEmail(input.email);
  const data = input.data ?? {};
  checkJsonValue('data', data, METADATA_MAX_BYTES);
  const redirectTo = deps.redirects.resolve(input.redirectTo);
  let passwordHash = '';
  if (type === 'signup') {
    if (input.password === '') throw authErrors.validation('Signup requires a valid password');
    assertStrongPassword(input.password, deps.config.auth);
    passwordHash = await hashPassword(input.password);
  }
  const newEmail =
    type === 'email_change_current' || type === 'email_change_new'
      ? input.newEmail === ''
        ? (() => {
            throw authErrors.validation('Email change requires a new email address');
          })()
        : normalizeEmail(input.newEmail)
      : undefined;

  return deps.app.db.transaction(async (tx) => {
    let user = await findUserByEmail(tx, email, true);
    if (type === 'signup' || type === 'invite') {
      if (user?.email_confirmed_at) throw authErrors.emailExists();
      if (!user) {
        if (type === 'invite') {
          user = (await findUserById(tx, await createInvitedUser(tx, email, data))) as UserRow;
        } else {
          const id = randomUUID();
          const identity = { sub: id, email, email_verified: false, phone_verified: false };
          await insertUser(tx, {
            id,
            email,
            encryptedPassword: passwordHash,
            emailConfirmed: false,
            invited: false,
            appMetadata: { provider: 'email', providers: ['email'] },
            userMetadata: { ...data },
          });
          await insertIdentity(tx, { userId: id, provider: 'email', providerId: id, data: identity });
          user = (await findUserById(tx, id)) as UserRow;
        }
      } else if (type === 'signup') {
        await updateUser(tx, user.id, { encryptedPassword: passwordHash });
      }
    } else if (!user) {
      if (type !== 'magiclink') throw authErrors.userNotFoundByEmail();
      const id = randomUUID();
      const identity = { sub: id, email, email_verified: false, phone_verified: false };
      await insertUser(tx, {
        id,
        email,
        encryptedPassword: '',
        emailConfirmed: false,
        invited: false,
        appMetadata: { provider: 'email', providers: ['email'] },
        userMetadata: { ...data },
      });
      await insertIdentity(tx, { userId: id, provider: 'email', providerId: id, data: identity });
      user = (await findUserById(tx, id)) as UserRow;
    }

    let prepared: Awaited<ReturnType<typeof prepareMail>>;
    if (newEmail !== undefined) {
      const taken = await findUserByEmail(tx, newEmail);
      if (taken && taken.id !== user.id) throw authErrors.emailExists();
      await updateUser(tx, user.id, { emailChange: newEmail, emailChangeConfirmStatus: 0 });
      const current = await prepareMail(tx, deps, {
        type: 'email_change_current',
        userId: user.id,
        to: email,
        email,
        newEmail,
        redirectTo,
        mailed: false,
      });
      const next = await prepareMail(tx, deps, {
        type: 'email_change_new',
        userId: user.id,
        to: newEmail,
        email,
        newEmail,
        redirectTo,
        mailed: false,
      });
      prepared = type === 'email_change_current' ? current : next;
    } else {
      const mailType = type === 'magiclink' && !user.email_confirmed_at ? 'signup' : type;
      prepared = await prepareMail(tx, deps, {
        type: mailType,
        userId: user.id,
        to: email,
        email,
        redirectTo,
        mailed: false,
      });
    }
    await audit(tx, meta, ADMIN, 'user_confirmation_requested', { user_id: user.id, link_type: type });
    const fresh = (await findUserById(tx, user.id)) as UserRow;
    return {
      ...userJson(fresh),
      action_link: prepared.actionLink,
      email_otp: prepared.otp,
      hashed_token: prepared.hashedToken,
      verification_type: prepared.verifyType,
      redirect_to: redirectTo,
    };
  });
}

/** GET /admin/users/{id}/passkeys (GoTrue's AdminPasskeyList; decision 149). */
export async function listPasskeysOfUser(deps: AuthDeps, userId: string): Promise<Json[]> {
  const user = await loadUser(deps, userId);
  const rows = await deps.app.db.transaction((tx) => passkeysOfUser(tx, user.id));
  return rows.map(passkeyListItem);
}

/** DELETE /admin/users/{id}/passkeys/{passkey_id} (GoTrue's AdminPasskeyDelete), audited as the admin's. */
export async function deletePasskeyOfUser(
  deps: AuthDeps,
  userId: string,
  passkeyId: string,
  meta: RequestMeta,
): Promise<void> {
  const user = await loadUser(deps, userId);
  if (!isUuid(passkeyId)) throw authErrors.passkeyNotFound();
  await deps.app.db.transaction(async (tx) => {
    const row = await findPasskey(tx, user.id, passkeyId.toLowerCase());
    if (!row) throw authErrors.passkeyNotFound();
    await deletePasskey(tx, row.id);
    await audit(tx, meta, ADMIN, 'passkey_deleted', { user_id: user.id, passkey_id: row.id });
  });
}
