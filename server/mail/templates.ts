/**
 * The auth service's mails: one clear purpose each, the product's name, a button and the same link in
 * plain text, the one-time code for people who type it, and what to do when the mail was not expected.
 * Every interpolated value is escaped; nothing from the request is rendered as markup.
 */

export type MailType =
  | 'signup'
  | 'invite'
  | 'magiclink'
  | 'recovery'
  | 'email_change_current'
  | 'email_change_new'
  | 'reauthentication';

/** Mails the product's database queues (private.mail_queue), sent by server/product/mail/product-mail.ts. */
export const PRODUCT_MAIL_TYPES = [
  'booking_status',
  'account_status',
  'scammer_report_status',
  'scammer_watch_alert',
  'scammer_reply_decision',
] as const;
export type ProductMailType = (typeof PRODUCT_MAIL_TYPES)[number];

export interface MailContext {
  siteName: string;
  siteUrl: string;
  /** The link to follow; null for mails that only carry a code (reauthentication). */
  actionUrl: string | null;
  otp: string;
  email: string;
  newEmail?: string;
  /** Minutes the link or code stays valid. */
  validMinutes: number;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

interface Copy {
  subject: string;
  heading: string;
  intro: string;
  button: string;
  ignore: string;
}

function copyFor(type: MailType, c: MailContext): Copy {
  switch (type) {
    case 'signup':
      return {
        subject: `Confirm your ${c.siteName} account`,
        heading: `Welcome to ${c.siteName}`,
        intro: `Please confirm your email address (${c.email}) to finish creating your account.`,
        button: 'Confirm my email',
        ignore: 'If you did not sign up, you can ignore this email; no account will be activated.',
      };
    case 'invite':
      return {
        subject: `You have been invited to ${c.siteName}`,
        heading: `Join ${c.siteName}`,
        intro: `You have been invited to create an account for ${c.email}. Accept the invitation to get started.`,
        button: 'Accept the invitation',
        ignore: 'If you were not expecting this invitation, you can ignore this email.',
      };
    case 'magiclink':
      return {
        subject: `Your ${c.siteName} sign-in link`,
        heading: `Sign in to ${c.siteName}`,
        intro: `Use the button below to sign in as ${c.email}.`,
        button: 'Sign in',
        ignore: 'If you did not ask to sign in, you can ignore this email; nobody can sign in without it.',
      };
    case 'recovery':
      return {
        subject: `Reset your ${c.siteName} password`,
        heading: 'Reset your password',
        intro: `Someone asked to reset the password of the ${c.siteName} account for ${c.email}. Choose a new password with the button below.`,
        button: 'Choose a new password',
        ignore: 'If you did not ask for this, you can ignore this email; your password stays unchanged.',
      };
    case 'email_change_current':
      return {
        subject: `Confirm the change of your ${c.siteName} email address`,
        heading: 'Confirm your new email address',
        intro: `A change of your account's email address from ${c.email} to ${c.newEmail ?? ''} was requested. Confirm it from this address too.`,
        button: 'Confirm the change',
        ignore: 'If you did not ask for this, do not confirm, and change your password.',
      };
    case 'email_change_new':
      return {
        subject: `Confirm your new ${c.siteName} email address`,
        heading: 'Confirm your new email address',
        intro: `Confirm that ${c.newEmail ?? c.email} should become the email address of your ${c.siteName} account.`,
        button: 'Confirm this address',
        ignore: 'If you did not ask for this, you can ignore this email.',
      };
    case 'reauthentication':
      return {
        subject: `Your ${c.siteName} confirmation code`,
        heading: 'Confirm it is you',
        intro: 'Enter this code to confirm the change to your account.',
        button: '',
        ignore: 'If you did not ask for this code, change your password.',
      };
  }
}

export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

export function renderMail(type: MailType, context: MailContext): RenderedMail {
  const copy = copyFor(type, context);
  const validity = `This ${context.actionUrl ? 'link and code are' : 'code is'} valid for ${context.validMinutes} minutes and can be used once.`;

  const text = [
    copy.heading,
    '',
    copy.intro,
    '',
    ...(context.actionUrl ? [`${copy.button}: ${context.actionUrl}`, ''] : []),
    `${context.actionUrl ? 'Or enter this code' : 'Code'}: ${context.otp}`,
    '',
    validity,
    copy.ignore,
    '',
    `— ${context.siteName}`,
    context.siteUrl,
  ].join('\n');

  const e = escapeHtml;
  const button = context.actionUrl
    ? `<p style="margin:28px 0"><a href="${e(context.actionUrl)}" style="background:#15803d;color:#ffffff;text-decoration:none;font-weight:600;padding:12px 22px;border-radius:8px;display:inline-block">${e(copy.button)}</a></p>
      <p style="font-size:13px;color:#52525b">If the button does not work, copy this link into your browser:<br><a href="${e(context.actionUrl)}" style="color:#15803d;word-break:break-all">${e(context.actionUrl)}</a></p>`
    : '';
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${e(copy.subject)}</title></head>
<body style="margin:0;background:#f4f4f5;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#18181b">
  <table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="padding:32px 12px">
    <tr><td align="center">
      <table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:520px;background:#ffffff;border-radius:12px;padding:32px">
        <tr><td>
          <p style="margin:0 0 24px;font-size:20px;font-weight:800;letter-spacing:.3px;color:#15803d">${e(context.siteName)}</p>
          <h1 style="margin:0 0 12px;font-size:22px">${e(copy.heading)}</h1>
          <p style="margin:0;font-size:15px;line-height:1.5">${e(copy.intro)}</p>
          ${button}
          <p style="font-size:15px">${context.actionUrl ? 'Or enter this code' : 'Your code'}: <strong style="font-size:20px;letter-spacing:3px">${e(context.otp)}</strong></p>
          <p style="font-size:13px;color:#52525b">${e(validity)}<br>${e(copy.ignore)}</p>
        </td></tr>
      </table>
      <p style="font-size:12px;color:#71717a">${e(context.siteName)} · <a href="${e(context.siteUrl)}" style="color:#71717a">${e(context.siteUrl)}</a></p>
    </td></tr>
  </table>
</body>
</html>`;
  return { subject: copy.subject, text, html };
}
