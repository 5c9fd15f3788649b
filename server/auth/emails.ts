import type { Queryable } from '../db/driver.ts';
import type { MailMessage } from '../mail/mailer.ts';
import { type MailType, renderMail } from '../mail/templates.ts';
import type { AuthDeps } from './auth.ts';
import { emailTokenHash, numericOtp, sha256Hex } from './crypto.ts';
import { type OneTimeTokenType, putOneTimeToken, type UserChanges, updateUser } from './db.ts';

/** Which one-time token each mail carries, and the `type` its link verifies as. */
const KINDS: Record<
  MailType,
  { token: OneTimeTokenType; verifyType: string | null; sentAt: keyof UserChanges }
> = {
  signup: { token: 'confirmation_token', verifyType: 'signup', sentAt: 'confirmationSentNow' },
  invite: { token: 'confirmation_token', verifyType: 'invite', sentAt: 'invitedNow' },
  magiclink: { token: 'recovery_token', verifyType: 'magiclink', sentAt: 'recoverySentNow' },
  recovery: { token: 'recovery_token', verifyType: 'recovery', sentAt: 'recoverySentNow' },
  email_change_current: {
    token: 'email_change_token_current',
    verifyType: 'email_change',
    sentAt: 'emailChangeSentNow',
  },
  email_change_new: {
    token: 'email_change_token_new',
    verifyType: 'email_change',
    sentAt: 'emailChangeSentNow',
  },
  reauthentication: { token: 'reauthentication_token', verifyType: null, sentAt: 'reauthenticationSentNow' },
};

export interface PreparedMail {
  /** The code a person can type (the link carries its hash). */
  otp: string;
  /** GoTrue's hashed_token: what the link carries and POST /verify accepts as token_hash. */
  hashedToken: string;
  /** The verification link; null for reauthentication (code only). */
  actionLink: string | null;
  verifyType: string | null;
  message: MailMessage;
}

/**
 * Creates the one-time token for a mail (stored as a SHA-256 digest, replacing any earlier one of
 * its kind) inside the caller's transaction, and renders the message. Sending is the caller's
 * business, after commit.
 */
export async function prepareMail(
  tx: Queryable,
  deps: AuthDeps,
  options: {
    type: MailType;
    userId: string;
    /** The address the mail goes to (and the code is bound to). */
    to: string;
    /** The account's current address, for email-change wording. */
    email: string;
    newEmail?: string;
    redirectTo: string;
    pkce?: boolean;
    /** False when the link is handed to an operator (admin/generate_link) instead of mailed. */
    mailed?: boolean;
  },
): Promise<PreparedMail> {
  const kind = KINDS[options.type];
  const otp = numericOtp(deps.config.auth.mailerOtpLength);
  const hashedToken = emailTokenHash(options.to, otp);
  await putOneTimeToken(
    tx,
    options.userId,
    kind.token,
    sha256Hex(hashedToken),
    options.to,
    options.mailed ?? true,
  );
  await updateUser(tx, options.userId, { [kind.sentAt]: true });
  const linkToken = options.pkce ? `pkce_${hashedToken}` : hashedToken;
  const actionLink = kind.verifyType
    ? `${deps.apiUrl}/verify?${new URLSearchParams({ token: linkToken, type: kind.verifyType, redirect_to: options.redirectTo })}`
    : null;
  const rendered = renderMail(options.type, {
    siteName: deps.config.siteName,
    siteUrl: deps.config.siteUrl,
    actionUrl: actionLink,
    otp,
    email: options.email,
    newEmail: options.newEmail,
    validMinutes: Math.round(deps.config.auth.mailerOtpExp / 60),
  });
  return {
    otp,
    hashedToken: linkToken,
    actionLink,
    verifyType: kind.verifyType,
    message: { to: options.to, type: options.type, actionUrl: actionLink, ...rendered },
  };
}
