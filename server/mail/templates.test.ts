import { describe, expect, it } from 'vitest';
import { escapeHtml, type MailType, renderMail } from './templates.ts';

const TYPES: MailType[] = [
  'signup',
  'invite',
  'magiclink',
  'recovery',
  'email_change_current',
  'email_change_new',
  'reauthentication',
];

const context = {
  siteName: 'HighGrade',
  siteUrl: 'https://highgrade.example',
  actionUrl: 'https://highgrade.example/auth/v1/verify?token=abc&type=signup&redirect_to=x',
  otp: '123456',
  email: 'jane@example.com',
  newEmail: 'jane.new@example.com',
  validMinutes: 60,
};

describe('mail templates', () => {
  it.each(TYPES)('%s: branded subject, link and code in text and HTML', (type) => {
    const actionUrl = type === 'reauthentication' ? null : context.actionUrl;
    const mail = renderMail(type, { ...context, actionUrl });
    expect(mail.subject).toContain('HighGrade');
    expect(mail.text).toContain('123456');
    expect(mail.html).toContain('123456');
    expect(mail.text).toContain('valid for 60 minutes');
    if (actionUrl) {
      expect(mail.text).toContain(actionUrl);
      expect(mail.html).toContain(escapeHtml(actionUrl));
    } else {
      expect(mail.html).not.toContain('href="https://highgrade.example/auth');
    }
  });

  it('names both addresses in an email change', () => {
    const mail = renderMail('email_change_current', { ...context });
    expect(mail.text).toContain('jane@example.com');
    expect(mail.text).toContain('jane.new@example.com');
  });

  it('escapes every value it puts into HTML', () => {
    const mail = renderMail('signup', {
      ...context,
      siteName: '<img src=x onerror=alert(1)>',
      email: '"><script>x</script>@example.com',
      actionUrl: 'https://highgrade.example/?a="onmouseover=alert(1)',
    });
    expect(mail.html).not.toMatch(/<img src=x|<script>x|"onmouseover/);
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });
});
