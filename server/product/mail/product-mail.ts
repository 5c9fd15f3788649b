import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/driver.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { escapeHtml, PRODUCT_MAIL_TYPES, type ProductMailType } from '../../mail/templates.ts';
import { claimQueuedMail, markMailFailed, markMailSent, type QueuedMail } from './db.ts';

/**
 * Sends the mails the database queued (private.mail_queue: a booking confirmed or declined, an account
 * suspended or restored; decision 101) through the mailer every other mail uses: SMTP when SMTP_HOST is
 * set, else the DATA_DIR/mail outbox. At least once: a mail whose claim expired is sent again.
 */
export interface ProductMailDeps {
  db: Database;
  mailer: Mailer;
  log: Pick<FastifyBaseLogger, 'warn'>;
  siteName: string;
  siteUrl: string;
}

const BATCH = 20;
const LEASE_SECONDS = 300;

export interface ProductMail {
  subject: string;
  text: string;
  html: string;
  actionUrl: string | null;
}

/** Plain text paragraphs from the database, escaped into HTML; the link is a path on the site. */
export function renderProductMail(
  mail: Pick<QueuedMail, 'subject' | 'body' | 'link'>,
  site: { siteName: string; siteUrl: string },
): ProductMail {
  const actionUrl = mail.link ? `${site.siteUrl}${mail.link}` : null;
  const paragraphs = mail.body
    .split(/\n{2,}/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);
  const text = [
    ...paragraphs.flatMap((paragraph) => [paragraph, '']),
    ...(actionUrl ? [`See it on ${site.siteName}: ${actionUrl}`, ''] : []),
    `— ${site.siteName}`,
    site.siteUrl,
  ].join('\n');
  const e = escapeHtml;
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${e(mail.subject)}</title></head>
<body style="margin:0;background:#f4f4f5;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#18181b">
  <table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="padding:32px 12px">
    <tr><td align="center">
      <table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:520px;background:#ffffff;border-radius:12px;padding:32px">
        <tr><td>
          <p style="margin:0 0 24px;font-size:20px;font-weight:800;letter-spacing:.3px;color:#15803d">${e(site.siteName)}</p>
          <h1 style="margin:0 0 12px;font-size:22px">${e(mail.subject)}</h1>
          ${paragraphs.map((paragraph) => `<p style="font-size:15px;line-height:1.5">${e(paragraph).replaceAll('\n', '<br>')}</p>`).join('\n          ')}
          ${actionUrl ? `<p style="margin:28px 0"><a href="${e(actionUrl)}" style="background:#15803d;color:#ffffff;text-decoration:none;font-weight:600;padding:12px 22px;border-radius:8px;display:inline-block">Open ${e(site.siteName)}</a></p>` : ''}
        </td></tr>
      </table>
      <p style="font-size:12px;color:#71717a">${e(site.siteName)} · <a href="${e(site.siteUrl)}" style="color:#71717a">${e(site.siteUrl)}</a></p>
    </td></tr>
  </table>
</body>
</html>`;
  return { subject: mail.subject, text, html, actionUrl };
}

function mailType(type: string): ProductMailType {
  return (PRODUCT_MAIL_TYPES as readonly string[]).includes(type)
    ? (type as ProductMailType)
    : 'account_status';
}

/** One pass over the queue; returns how many mails were sent. */
export async function sendQueuedMail(deps: ProductMailDeps): Promise<number> {
  const claimed = await claimQueuedMail(deps.db, BATCH, LEASE_SECONDS);
  let sent = 0;
  for (const mail of claimed) {
    const rendered = renderProductMail(mail, deps);
    try {
      await deps.mailer.deliver({ to: mail.to_email, type: mailType(mail.type), ...rendered });
      await markMailSent(deps.db, mail.id);
      sent += 1;
    } catch (error) {
      deps.log.warn({ err: error, type: mail.type }, 'product mail delivery failed');
      await markMailFailed(deps.db, mail.id, error instanceof Error ? error.message : String(error));
    }
  }
  return sent;
}
