import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/driver.ts';
import type { MailMessage } from '../mail/mailer.ts';
import { bootstrapAdminOnProof } from './admin-bootstrap.ts';
import { audit } from './audit.ts';
import type { AuthDeps, RequestMeta } from './auth.ts';
import { emailTokenHash, sha256Hex } from './crypto.ts';
import {
  deleteOneTimeTokens,
  deleteSessionsOfUser,
  findOneTimeToken,
  findUserByEmail,
  findUserById,
  insertIdentity,
  insertUser,
  issueAuthCode,
  type OneTimeTokenType,
  syncProviders,
  takeOneTimeToken,
  type UserRow,
  updateIdentityData,
  updateUser,
} from './db.ts';
import { prepareMail } from './emails.ts';
import { authErrors } from './errors.ts';
import { checkJsonValue, normalizeEmail } from './input.ts';
import {
  assertStrongPassword,
  burnVerification,
  checkPasswordInput,
  hashPassword,
  passwordWeakness,
  verifyPassword,
} from './passwords.ts';
import { type CodeChallenge, createFlowState } from './pkce.ts';
import { sessionJson, userJson } from './serialize.ts';
import { issueSession } from './sessions.ts';
import { beginSignIn, signInFailed, signInSucceeded } from './sign-in-throttle.ts';

/**
 * Email-and-password accounts: sign-up, password sign-in, emailed links and codes (confirmation,
 * magic link, recovery, email change, reauthentication), and changes a signed-in user makes to their
 * own account. Mirrors GoTrue's signup.go, token.go, otp.go, recover.go, resend.go, verify.go and
 * user.go; mails are queued after the transaction commits.
 */

type Json = Record<string, unknown>;

export const METADATA_MAX_BYTES = 4096;

function emailIdentityData(userId: string, email: string, verified: boolean): Json {
  return { sub: userId, email, email_verified: verified, phone_verified: false };
}

/** Shallow merge where null removes a key (GoTrue's UpdateUserMetaData). */
export function mergeMetadata(current: Json | null, changes: Json): Json {
  const next: Json = { ...(current ?? {}) };
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) delete next[key];
    else next[key] = value;
  }
  return next;
}

async function createEmailUser(
  tx: Queryable,
  options: { email: string; passwordHash: string; confirmed: boolean; invited: boolean; data: Json },
): Promise<string> {
  const id = randomUUID();
  const identity = emailIdentityData(id, options.email, options.confirmed);
  const userMetadata = { ...options.data, ...identity };
  checkJsonValue('data', userMetadata, METADATA_MAX_BYTES);
  await insertUser(tx, {
    id,
    email: options.email,
    encryptedPassword: options.passwordHash,
    emailConfirmed: false,
    invited: options.invited,
    appMetadata: { provider: 'email', providers: ['email'] },
    userMetadata,
  });
  // A sign-up confirmed at once (ENABLE_EMAIL_AUTOCONFIRM) is inserted, then confirmed, as GoTrue does:
  // a database trigger sees the confirmation of a sign-up exactly as when the member follows the
  // mailed link (the product welcomes them), and an account an admin creates confirmed stays apart
  // (decision 191).
  if (options.confirmed) await updateUser(tx, id, { emailConfirmedNow: true });
  await insertIdentity(tx, { userId: id, provider: 'email', providerId: id, data: identity });
  return id;
}

function queue(deps: AuthDeps, messages: MailMessage[]): void {
  for (const message of messages) deps.mail.enqueue(message);
}

// ----------------------------------------------------------------------------------------------
// Sign-up and password sign-in
// ----------------------------------------------------------------------------------------------

export interface SignupInput {
  email: string;
  phone: string;
  password: string;
  data: Json | undefined;
  redirectTo: string | undefined;
  pkce: CodeChallenge | undefined;
}

/** GoTrue's answer to a sign-up for an address that is already confirmed: a plausible stranger. */
function obfuscatedUser(email: string, data: Json): Json {
  const now = new Date().toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
  return {
    id: randomUUID(),
    aud: 'authenticated',
    role: '',
    email,
    phone: '',
    confirmation_sent_at: now,
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: data,
    identities: [],
    created_at: now,
    updated_at: now,
    is_anonymous: false,
  };
}

export async function signup(deps: AuthDeps, input: SignupInput, meta: RequestMeta): Promise<Json> {
  if (input.email === '' && input.phone === '') return signupAnonymously(deps, input, meta);
  if (input.email === '') throw authErrors.phoneDisabled('signups');
  if (deps.config.disableSignup) throw authErrors.signupDisabled();
  const email = normalizeEmail(input.email);
  if (input.password === '') throw authErrors.validation('Signup requires a valid password');
  assertStrongPassword(input.password, deps.config.auth);
  const data = input.data ?? {};
  checkJsonValue('data', data, METADATA_MAX_BYTES);
  await deps.limits.perIp('signin', meta.ip);
  const redirectTo = deps.redirects.resolve(input.redirectTo);
  const autoconfirm = deps.config.enableEmailAutoconfirm;
  // Hashed before looking the address up, so both answers take the hasher's time.
  const passwordHash = await hashPassword(input.password);

  const existing = await findUserByEmail(deps.app.db, email);
  if (!autoconfirm) {
    // Counted for a confirmed address too, which gets no mail: the answers must not differ.
    await deps.limits.mail({
      ip: meta.ip,
      recipients: [{ kind: 'signup', address: email }],
      sends: !existing?.email_confirmed_at,
      unconfirmed: true,
    });
  }
  if (existing?.email_confirmed_at) {
    await deps.app.db.transaction((tx) =>
      audit(tx, meta, existing, 'user_repeated_signup', { provider: 'email' }),
    );
    if (autoconfirm) throw authErrors.userAlreadyExists();
    return obfuscatedUser(email, data);
  }

  const result = await deps.app.db.transaction(async (tx) => {
    const userId = existing
      ? existing.id
      : await createEmailUser(tx, { email, passwordHash, confirmed: autoconfirm, invited: false, data });
    if (autoconfirm) {
      const user = (await findUserById(tx, userId)) as UserRow;
      await audit(tx, meta, user, 'user_signedup', { provider: 'email' });
      const session = await issueSession(tx, deps, userId, 'password', meta, 'email');
      return { body: sessionJson(session.tokens, session.user), mails: [] };
    }
    if (input.pkce) {
      await createFlowState(tx, input.pkce, {
        userId,
        providerType: 'email',
        authenticationMethod: 'email/signup',
      });
    }
    // An existing unconfirmed account is not changed (nobody has proven the address yet); it only
    // gets a new confirmation mail.
    const prepared = await prepareMail(tx, deps, {
      type: 'signup',
      userId,
      to: email,
      email,
      redirectTo,
      pkce: input.pkce !== undefined,
    });
    const user = (await findUserById(tx, userId)) as UserRow;
    await audit(tx, meta, user, 'user_confirmation_requested', { provider: 'email' });
    return { body: userJson(user), mails: [prepared.message] };
  });
  queue(deps, result.mails);
  return result.body;
}

/**
 * An anonymous sign-in (GoTrue's SignupAnonymously, decision 148): a sign-up without email, phone or
 * password makes a user with `is_anonymous` true and signs it in (`amr` method `anonymous`). Refused
 * unless ENABLE_ANONYMOUS_USERS is on; RATE_LIMIT_ANONYMOUS_USERS per client address and hour, as
 * GoTrue checks them: the switch, then the limit, then DISABLE_SIGNUP. A password sent along is
 * ignored, as by GoTrue. The account becomes permanent when an email address is added and confirmed.
 */
async function signupAnonymously(deps: AuthDeps, input: SignupInput, meta: RequestMeta): Promise<Json> {
  if (!deps.config.enableAnonymousUsers) throw authErrors.anonymousDisabled();
  await deps.limits.perIp('anonymous', meta.ip);
  if (deps.config.disableSignup) throw authErrors.signupDisabled();
  const data = input.data ?? {};
  checkJsonValue('data', data, METADATA_MAX_BYTES);
  return deps.app.db.transaction(async (tx) => {
    const id = randomUUID();
    await insertUser(tx, {
      id,
      email: null,
      encryptedPassword: '',
      emailConfirmed: false,
      invited: false,
      appMetadata: {},
      userMetadata: data,
      isAnonymous: true,
    });
    const user = (await findUserById(tx, id)) as UserRow;
    await audit(tx, meta, user, 'user_signedup', { provider: 'anonymous' });
    const session = await issueSession(tx, deps, id, 'anonymous', meta);
    return sessionJson(session.tokens, session.user);
  });
}

export async function passwordGrant(
  deps: AuthDeps,
  input: { email: string; phone: string; password: string },
  meta: RequestMeta,
): Promise<{ body: Json; deviceToken: string }> {
  if (input.email !== '' && input.phone !== '') {
    throw authErrors.validation('Only an email address or phone number should be provided on login.');
  }
  if (input.email === '' && input.phone !== '') throw authErrors.phoneDisabled('logins');
  if (input.email === '') throw authErrors.validation('missing email or phone');

  let email: string;
  try {
    email = normalizeEmail(input.email);
  } catch {
    await deps.limits.perIp('signin', meta.ip);
    throw authErrors.invalidCredentials();
  }
  // The per-account throttle (decision 095) decides first; a locked key is refused unchecked.
  const attempt = await beginSignIn(deps, email, { ip: meta.ip, deviceTokens: meta.deviceTokens ?? [] });
  const refuse = async () => {
    await signInFailed(deps, attempt);
    return authErrors.invalidCredentials();
  };
  try {
    checkPasswordInput(input.password);
  } catch {
    throw await refuse();
  }
  const user = await findUserByEmail(deps.app.db, email);
  if (!user?.encrypted_password) {
    await burnVerification(input.password);
    throw await refuse();
  }
  if (user.banned) throw authErrors.userBanned();
  if (!(await verifyPassword(user.encrypted_password, input.password))) throw await refuse();
  if (!user.email_confirmed_at) throw authErrors.emailNotConfirmed();

  const deviceToken = await signInSucceeded(deps, attempt);
  const weakness = passwordWeakness(input.password, deps.config.auth);
  const body = await deps.app.db.transaction(async (tx) => {
    await audit(tx, meta, user, 'login', { provider: 'email' });
    const session = await issueSession(tx, deps, user.id, 'password', meta, 'email');
    return sessionJson(session.tokens, session.user, weakness ? { weak_password: weakness } : {});
  });
  return { body, deviceToken };
}

// ----------------------------------------------------------------------------------------------
// Mails on request: magic link / code, recovery, resend, reauthentication
// ----------------------------------------------------------------------------------------------

export async function sendOtp(
  deps: AuthDeps,
  input: {
    email: string;
    phone: string;
    createUser: boolean;
    data: Json | undefined;
    redirectTo: string | undefined;
    pkce: CodeChallenge | undefined;
  },
  meta: RequestMeta,
): Promise<Json> {
  if (input.email === '' && input.phone !== '') throw authErrors.phoneDisabled('logins');
  const email = normalizeEmail(input.email);
  const data = input.data ?? {};
  checkJsonValue('data', data, METADATA_MAX_BYTES);
  await deps.limits.perIp('otp', meta.ip);
  const redirectTo = deps.redirects.resolve(input.redirectTo);
  const autoconfirm = deps.config.enableEmailAutoconfirm;

  const existing = await findUserByEmail(deps.app.db, email);
  // Unknown address and no sign-up wanted: the same empty answer as for a known one, so the endpoint
  // cannot be used to learn which addresses have accounts (docs/decisions/016-auth-enumeration.md).
  const sends = existing ? !existing.banned : input.createUser && !deps.config.disableSignup;
  // GoTrue's own answer, when the operator chose it (decision 135).
  if (!existing && !sends && deps.config.auth.otpRevealsUnknownEmail) throw authErrors.otpSignupDisabled();
  await deps.limits.mail({
    ip: meta.ip,
    recipients: [{ kind: 'magiclink', address: email }],
    sends,
    unconfirmed: existing ? existing.email_confirmed_at === null : !autoconfirm,
  });
  if (!sends) return {};

  const mails = await deps.app.db.transaction(async (tx) => {
    const userId =
      existing?.id ??
      (await createEmailUser(tx, { email, passwordHash: '', confirmed: autoconfirm, invited: false, data }));
    const confirmed = existing ? existing.email_confirmed_at !== null : autoconfirm;
    const type = confirmed ? 'magiclink' : 'signup';
    if (input.pkce) {
      await createFlowState(tx, input.pkce, {
        userId,
        providerType: 'email',
        authenticationMethod: confirmed ? 'magiclink' : 'email/signup',
      });
    }
    const prepared = await prepareMail(tx, deps, {
      type,
      userId,
      to: email,
      email,
      redirectTo,
      pkce: input.pkce !== undefined,
    });
    await audit(
      tx,
      meta,
      { id: userId, email },
      confirmed ? 'user_recovery_requested' : 'user_confirmation_requested',
    );
    return [prepared.message];
  });
  queue(deps, mails);
  return {};
}

export async function recover(
  deps: AuthDeps,
  input: { email: string; redirectTo: string | undefined; pkce: CodeChallenge | undefined },
  meta: RequestMeta,
): Promise<Json> {
  if (input.email === '') throw authErrors.validation('Password recovery requires an email');
  const email = normalizeEmail(input.email);
  await deps.limits.perIp('otp', meta.ip);
  const redirectTo = deps.redirects.resolve(input.redirectTo);
  const user = await findUserByEmail(deps.app.db, email);
  // GoTrue answers `{}` for an unknown address, whatever came before; a known address asked for again
  // within SMTP_MAX_FREQUENCY is answered the same `{}` without a second mail, so the answers tell no
  // accounts apart — unless the operator chose GoTrue's revealing answers (decisions 016, 135, 188).
  const sends = await deps.limits.mail({
    ip: meta.ip,
    recipients: [{ kind: 'recovery', address: email }],
    sends: user !== undefined && !user.banned,
    unconfirmed: user?.email_confirmed_at === null,
    perAddress: deps.config.auth.otpRevealsUnknownEmail ? 'refuse' : 'quiet',
  });
  if (!user || !sends) return {};
  const mails = await deps.app.db.transaction(async (tx) => {
    if (input.pkce) {
      await createFlowState(tx, input.pkce, {
        userId: user.id,
        providerType: 'email',
        authenticationMethod: 'recovery',
      });
    }
    const prepared = await prepareMail(tx, deps, {
      type: 'recovery',
      userId: user.id,
      to: email,
      email,
      redirectTo,
      pkce: input.pkce !== undefined,
    });
    await audit(tx, meta, user, 'user_recovery_requested');
    return [prepared.message];
  });
  queue(deps, mails);
  return {};
}

export async function resend(
  deps: AuthDeps,
  input: {
    email: string;
    phone: string;
    type: string;
    redirectTo: string | undefined;
    pkce: CodeChallenge | undefined;
  },
  meta: RequestMeta,
): Promise<Json> {
  if (input.type === 'sms' || input.type === 'phone_change' || (input.email === '' && input.phone !== '')) {
    throw authErrors.phoneDisabled('logins');
  }
  if (input.type !== 'signup' && input.type !== 'email_change') {
    throw authErrors.validation('Missing one of these types: signup, email_change, sms, phone_change');
  }
  const email = normalizeEmail(input.email);
  await deps.limits.perIp('otp', meta.ip);
  const redirectTo = deps.redirects.resolve(input.redirectTo);
  const user = await findUserByEmail(deps.app.db, email);
  const sends =
    user !== undefined &&
    !user.banned &&
    (input.type === 'signup' ? !user.email_confirmed_at : Boolean(user.email_change));
  await deps.limits.mail({
    ip: meta.ip,
    recipients: [{ kind: input.type, address: email }],
    sends,
    unconfirmed: input.type === 'signup',
  });
  if (!user || !sends) return {};

  const mails = await deps.app.db.transaction(async (tx) => {
    if (input.type === 'signup') {
      if (input.pkce) {
        await createFlowState(tx, input.pkce, {
          userId: user.id,
          providerType: 'email',
          authenticationMethod: 'email/signup',
        });
      }
      const prepared = await prepareMail(tx, deps, {
        type: 'signup',
        userId: user.id,
        to: email,
        email,
        redirectTo,
        pkce: input.pkce !== undefined,
      });
      return [prepared.message];
    }
    return emailChangeMails(tx, deps, user, user.email_change as string, redirectTo, input.pkce);
  });
  queue(deps, mails);
  return {};
}

export async function reauthenticate(deps: AuthDeps, user: UserRow, meta: RequestMeta): Promise<Json> {
  if (!user.email) throw authErrors.reauthenticationNoEmail();
  await deps.limits.perIp('otp', meta.ip);
  await deps.limits.mail({
    ip: meta.ip,
    recipients: [{ kind: 'reauthentication', address: user.email }],
    sends: true,
  });
  const mails = await deps.app.db.transaction(async (tx) => {
    const prepared = await prepareMail(tx, deps, {
      type: 'reauthentication',
      userId: user.id,
      to: user.email as string,
      email: user.email as string,
      redirectTo: deps.config.siteUrl,
    });
    await audit(tx, meta, user, 'user_reauthenticate_requested');
    return [prepared.message];
  });
  queue(deps, mails);
  return {};
}

async function emailChangeMails(
  tx: Queryable,
  deps: AuthDeps,
  user: UserRow,
  newEmail: string,
  redirectTo: string,
  pkce: CodeChallenge | undefined,
): Promise<MailMessage[]> {
  if (pkce) {
    await createFlowState(tx, pkce, {
      userId: user.id,
      providerType: 'email',
      authenticationMethod: 'email_change',
    });
  }
  const messages: MailMessage[] = [];
  if (deps.config.auth.secureEmailChange && user.email) {
    const current = await prepareMail(tx, deps, {
      type: 'email_change_current',
      userId: user.id,
      to: user.email,
      email: user.email,
      newEmail,
      redirectTo,
      pkce: pkce !== undefined,
    });
    messages.push(current.message);
  }
  const next = await prepareMail(tx, deps, {
    type: 'email_change_new',
    userId: user.id,
    to: newEmail,
    email: user.email ?? newEmail,
    newEmail,
    redirectTo,
    pkce: pkce !== undefined,
  });
  messages.push(next.message);
  return messages;
}

// ----------------------------------------------------------------------------------------------
// Verification of emailed links and codes
// ----------------------------------------------------------------------------------------------

export const VERIFY_TYPES = ['signup', 'invite', 'magiclink', 'recovery', 'email_change', 'email'] as const;
export type VerifyType = (typeof VERIFY_TYPES)[number];

const TOKEN_TYPES: Record<VerifyType, OneTimeTokenType[]> = {
  signup: ['confirmation_token'],
  invite: ['confirmation_token'],
  magiclink: ['recovery_token'],
  recovery: ['recovery_token'],
  email_change: ['email_change_token_current', 'email_change_token_new'],
  email: ['confirmation_token', 'recovery_token'],
};

/** GoTrue's authentication method for a PKCE flow started by each kind of emailed link. */
export const FLOW_METHODS: Record<string, string> = {
  signup: 'email/signup',
  invite: 'invite',
  magiclink: 'magiclink',
  recovery: 'recovery',
  email_change: 'email_change',
};

export const SINGLE_CONFIRMATION_MESSAGE =
  'Confirmation link accepted. Please proceed to confirm link sent to the other email';

export type VerifyOutcome =
  | {
      kind: 'session';
      type: string;
      body: Json;
      tokens: { accessToken: string; refreshToken: string; expiresIn: number; expiresAt: number };
    }
  | { kind: 'code'; type: string; authCode: string }
  | { kind: 'message'; message: string };

export interface VerifyInput {
  type: VerifyType;
  /** Hex token hash (link / token_hash) — or, with `email`, the code the person typed. */
  token: string;
  email: string | undefined;
  /** GET links of PKCE flows answer with an auth code instead of a session. */
  pkce: boolean;
}

export async function verify(deps: AuthDeps, input: VerifyInput, meta: RequestMeta): Promise<VerifyOutcome> {
  await deps.limits.perIp('verify', meta.ip);
  const typed = input.email !== undefined;
  const hashed = typed ? emailTokenHash(input.email as string, input.token) : input.token;
  const invalid = () => (typed ? authErrors.otpExpired() : authErrors.linkExpired());

  return deps.app.db.transaction(async (tx) => {
    const taken = await takeOneTimeToken(
      tx,
      [sha256Hex(hashed)],
      TOKEN_TYPES[input.type],
      deps.config.auth.mailerOtpExp,
    );
    if (!taken?.fresh || (typed && taken.relates_to !== input.email)) throw invalid();
    const user = await findUserById(tx, taken.user_id, true);
    if (!user) throw invalid();
    if (user.banned) throw authErrors.userBanned(403);

    let type: string = input.type;
    if (taken.token_type === 'confirmation_token') {
      if (type === 'email') type = 'signup';
      await confirmEmail(tx, user);
      await audit(tx, meta, user, user.invited_at && type === 'invite' ? 'invite_accepted' : 'user_signedup');
      await bootstrapAdminOnProof(tx, deps, user, taken, meta);
    } else if (taken.token_type === 'recovery_token') {
      if (type === 'email') type = 'magiclink';
      if (!user.email_confirmed_at) await confirmEmail(tx, user);
      await deleteOneTimeTokens(tx, user.id);
      await audit(tx, meta, user, 'login');
      await bootstrapAdminOnProof(tx, deps, user, taken, meta);
    } else {
      const other: OneTimeTokenType =
        taken.token_type === 'email_change_token_current'
          ? 'email_change_token_new'
          : 'email_change_token_current';
      if (await findOneTimeToken(tx, user.id, other)) {
        // Secure email change: the other address has not confirmed yet.
        await updateUser(tx, user.id, { emailChangeConfirmStatus: 1 });
        return { kind: 'message', message: SINGLE_CONFIRMATION_MESSAGE };
      }
      await applyEmailChange(tx, user);
      await audit(tx, meta, user, 'user_modified', { email_change: true });
    }

    if (input.pkce) {
      const code = await issueAuthCode(tx, user.id, FLOW_METHODS[type] ?? type);
      if (!code) throw authErrors.noFlowStateForLink();
      return { kind: 'code', type, authCode: code.auth_code };
    }
    const session = await issueSession(tx, deps, user.id, 'otp', meta, 'email');
    return { kind: 'session', type, body: sessionJson(session.tokens, session.user), tokens: session.tokens };
  });
}

async function confirmEmail(tx: Queryable, user: UserRow): Promise<void> {
  await updateUser(tx, user.id, {
    emailConfirmedNow: user.email_confirmed_at === null,
    userMetadata: mergeMetadata(user.raw_user_meta_data, { email_verified: true }),
  });
  await updateIdentityData(tx, user.id, 'email', { email_verified: true });
  await deleteOneTimeTokens(tx, user.id, ['confirmation_token']);
}

async function applyEmailChange(tx: Queryable, user: UserRow): Promise<void> {
  const newEmail = user.email_change;
  if (!newEmail) throw authErrors.linkExpired();
  const taken = await findUserByEmail(tx, newEmail);
  if (taken && taken.id !== user.id) throw authErrors.emailExists();
  await updateUser(tx, user.id, {
    email: newEmail,
    emailChange: '',
    emailChangeConfirmStatus: 0,
    emailConfirmedNow: true,
    userMetadata: mergeMetadata(user.raw_user_meta_data, { email: newEmail, email_verified: true }),
  });
  if (user.identities.some((identity) => identity.provider === 'email')) {
    await updateIdentityData(tx, user.id, 'email', { email: newEmail, email_verified: true });
  } else {
    await insertIdentity(tx, {
      userId: user.id,
      provider: 'email',
      providerId: user.id,
      data: emailIdentityData(user.id, newEmail, true),
    });
  }
  await deleteOneTimeTokens(tx, user.id, ['email_change_token_current', 'email_change_token_new']);
  // A confirmed address makes an anonymous account permanent (GoTrue's emailChangeVerify), its
  // providers now those of its identities ({"provider":"email","providers":["email"]}).
  if (user.is_anonymous) {
    await updateUser(tx, user.id, { isAnonymous: false });
    await syncProviders(tx, user.id);
  }
}

// ----------------------------------------------------------------------------------------------
// PUT /user
// ----------------------------------------------------------------------------------------------

export interface UserUpdateInput {
  email: string;
  phone: string;
  password: string | undefined;
  nonce: string;
  data: Json | undefined;
  redirectTo: string | undefined;
  pkce: CodeChallenge | undefined;
}

const REAUTHENTICATION_WINDOW_MS = 24 * 3600 * 1000;

export async function updateOwnUser(
  deps: AuthDeps,
  auth: {
    user: UserRow;
    sessionId: string | null;
    sessionCreatedAt: string | null;
    /** The session's assurance level (`aal1` without a session). */
    sessionAal: string | null;
  },
  input: UserUpdateInput,
  meta: RequestMeta,
): Promise<Json> {
  const { user } = auth;
  if (input.phone !== '' && input.phone !== user.phone) throw authErrors.phoneDisabled('signups');
  const newEmail = input.email === '' ? undefined : normalizeEmail(input.email);
  const changingEmail = newEmail !== undefined && newEmail !== user.email?.toLowerCase();
  // GoTrue's rule (decision 096): with a verified factor, a password-only session changes neither.
  if (
    (changingEmail || (input.password !== undefined && input.password !== '')) &&
    user.factors.some((factor) => factor.status === 'verified') &&
    auth.sessionAal !== 'aal2'
  ) {
    throw authErrors.aal2RequiredForCredentials();
  }
  if (user.is_anonymous && input.password && newEmail === undefined) {
    throw authErrors.validation422(
      'Updating password of an anonymous user without an email or phone is not allowed',
    );
  }
  if (input.password !== undefined) assertStrongPassword(input.password, deps.config.auth);
  const redirectTo = deps.redirects.resolve(input.redirectTo);
  const autoconfirm = deps.config.enableEmailAutoconfirm;
  if (changingEmail && !autoconfirm) {
    const recipients = [{ kind: 'email_change_new', address: newEmail }];
    if (deps.config.auth.secureEmailChange && user.email) {
      recipients.unshift({ kind: 'email_change_current', address: user.email });
    }
    await deps.limits.mail({ ip: meta.ip, recipients, sends: true });
  }
  const passwordHash = input.password !== undefined ? await hashPassword(input.password) : undefined;
  const samePassword =
    input.password !== undefined && (await verifyPassword(user.encrypted_password, input.password));

  const result = await deps.app.db.transaction(async (tx) => {
    const mails: MailMessage[] = [];
    const current = (await findUserById(tx, user.id, true)) as UserRow;
    if (input.data !== undefined) {
      const merged = mergeMetadata(current.raw_user_meta_data, input.data);
      checkJsonValue('data', merged, METADATA_MAX_BYTES);
      await updateUser(tx, user.id, { userMetadata: merged });
    }
    if (passwordHash !== undefined) {
      const createdAt = auth.sessionCreatedAt ? Date.parse(auth.sessionCreatedAt) : 0;
      const recent = Date.now() - createdAt < REAUTHENTICATION_WINDOW_MS;
      if (deps.config.auth.updatePasswordRequireReauthentication && !recent && input.nonce === '') {
        throw authErrors.reauthenticationNeeded();
      }
      if (input.nonce !== '') await consumeReauthenticationNonce(tx, deps, current, input.nonce);
      if (samePassword) throw authErrors.samePassword();
      await updateUser(tx, user.id, { encryptedPassword: passwordHash });
      await deleteOneTimeTokens(tx, user.id);
      // A changed password ends every other session (GoTrue's LogoutAllExceptMe).
      await deleteSessionsOfUser(tx, user.id, auth.sessionId ?? undefined);
      await audit(tx, meta, user, 'user_updated_password');
    }
    if (changingEmail) {
      const taken = await findUserByEmail(tx, newEmail);
      if (taken && taken.id !== user.id) throw authErrors.emailExists();
      if (autoconfirm && current.is_anonymous) {
        // GoTrue: an anonymous user adding an address under autoconfirm is like a sign-up, confirmed
        // at once, and the account becomes permanent.
        await updateUser(tx, user.id, { emailChange: newEmail });
        await applyEmailChange(tx, (await findUserById(tx, user.id, true)) as UserRow);
      } else if (autoconfirm) {
        await updateUser(tx, user.id, {
          email: newEmail,
          emailConfirmedNow: true,
          userMetadata: mergeMetadata((await findUserById(tx, user.id))?.raw_user_meta_data ?? {}, {
            email: newEmail,
          }),
        });
        await updateIdentityData(tx, user.id, 'email', { email: newEmail, email_verified: true });
      } else {
        await updateUser(tx, user.id, { emailChange: newEmail, emailChangeConfirmStatus: 0 });
        mails.push(...(await emailChangeMails(tx, deps, current, newEmail, redirectTo, input.pkce)));
      }
      await audit(tx, meta, user, 'user_modified', { email_change_requested: true });
    } else if (input.data !== undefined) {
      await audit(tx, meta, user, 'user_modified');
    }
    return { user: (await findUserById(tx, user.id)) as UserRow, mails };
  });
  queue(deps, result.mails);
  return userJson(result.user);
}

async function consumeReauthenticationNonce(
  tx: Queryable,
  deps: AuthDeps,
  user: UserRow,
  nonce: string,
): Promise<void> {
  if (!user.email) throw authErrors.reauthenticationNotValid();
  const taken = await takeOneTimeToken(
    tx,
    [sha256Hex(emailTokenHash(user.email, nonce))],
    ['reauthentication_token'],
    deps.config.auth.mailerOtpExp,
  );
  if (!taken?.fresh || taken.user_id !== user.id) throw authErrors.reauthenticationNotValid();
}
