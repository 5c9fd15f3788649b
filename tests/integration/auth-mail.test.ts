import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locationOf, readOutbox, waitForMail } from '#tests/support/auth.ts';
import { clientFor } from '#tests/support/clients.ts';
import { startSmtpServer, type TestSmtpServer } from '#tests/support/smtp.ts';
import { type AuthTestServer, startAuthServer } from '#tests/support/test-server.ts';
import { uniqueEmail } from '#tests/support/users.ts';

/** Mail delivery: a real SMTP receiver when SMTP_HOST is set, else the DATA_DIR/mail outbox. */

const PASSWORD = 'correct horse battery';

describe('SMTP delivery', () => {
  let smtp: TestSmtpServer;
  let server: AuthTestServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    server = await startAuthServer({
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(smtp.port),
      SMTP_ADMIN_EMAIL: 'no-reply@highgrade.example',
      SMTP_SENDER_NAME: 'HighGrade Team',
      SITE_NAME: 'HighGrade',
    });
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  it('sends the confirmation mail through the SMTP server, and the link in it works', async () => {
    const email = uniqueEmail('smtp');
    const { error } = await clientFor(server).auth.signUp({
      email,
      password: PASSWORD,
      options: { emailRedirectTo: `${server.siteUrl}/email-confirmed` },
    });
    expect(error).toBeNull();
    await smtp.waitFor(1);
    const message = smtp.messages.find((m) => m.to.includes(email));
    expect(message).toBeDefined();
    expect(message?.from).toBe('no-reply@highgrade.example');
    expect(message?.raw).toContain('From: HighGrade Team <no-reply@highgrade.example>');
    expect(message?.raw).toContain('Subject: Confirm your HighGrade account');
    expect(message?.raw).toMatch(/X-HighGrade-Mail-Type: signup/i);
    expect(message?.raw).toMatch(/Content-Type: multipart\/alternative/);
    // Nothing goes to the outbox when SMTP is configured.
    expect(await readOutbox(server.dataDir)).toEqual([]);

    const unfolded = (message?.raw ?? '').replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    const link =
      /(http:\/\/127\.0\.0\.1:\d+\/auth\/v1\/verify\?token=[0-9a-f]{56}&type=signup&redirect_to=[^\s"<]+)/.exec(
        unfolded,
      )?.[1];
    expect(link).toBeDefined();
    const { location } = await locationOf((link as string).replace(/&amp;/g, '&'));
    expect(location).toContain('/email-confirmed#access_token=');
  });
});

describe('outbox delivery (no SMTP_HOST)', () => {
  let server: AuthTestServer;
  beforeAll(async () => {
    server = await startAuthServer({ SITE_NAME: 'High<b>Grade</b> & Co' });
  });
  afterAll(() => server?.close());

  it('writes <timestamp>-<id>.eml and a .json record for every mail', async () => {
    const email = uniqueEmail('outbox');
    await clientFor(server).auth.signUp({ email, password: PASSWORD });
    const mail = await waitForMail(server.dataDir, (m) => m.to === email);
    expect(Object.keys(mail).sort()).toEqual(
      ['id', 'to', 'subject', 'text', 'html', 'type', 'action_url', 'created_at', 'file'].sort(),
    );
    expect(mail.file).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z-[0-9a-f-]{36}\.eml$/);
    expect(new Date(mail.created_at).toISOString()).toBe(mail.created_at);
    const eml = await readFile(join(server.dataDir, 'mail', mail.file), 'utf8');
    expect(eml).toContain(`To: ${email}`);
    expect(eml).toContain(`Message-ID: <${mail.id}@127.0.0.1>`);
    expect(mail.text).toContain(mail.action_url as string);
    expect(mail.text).toMatch(/code: \d{6}/);
  });

  it('escapes the product name and every value in the HTML', async () => {
    const email = uniqueEmail('escape');
    await clientFor(server).auth.signUp({ email, password: PASSWORD });
    const mail = await waitForMail(server.dataDir, (m) => m.to === email);
    expect(mail.subject).toBe('Confirm your High<b>Grade</b> & Co account');
    expect(mail.html).toContain('High&lt;b&gt;Grade&lt;/b&gt; &amp; Co');
    expect(mail.html).not.toContain('<b>Grade</b>');
    expect(mail.html).toContain((mail.action_url as string).replace(/&/g, '&amp;'));
  });
});
