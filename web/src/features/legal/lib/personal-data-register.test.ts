import { describe, expect, it } from 'vitest';
import { anchorOf, personalDataRegister } from './personal-data-register.ts';

describe('the personal-data register page (issue 33)', () => {
  const register = personalDataRegister();

  it('shows every section of docs/personal-data.md, anchored as the file links them', () => {
    expect(register.title).toBe('Personal data HighGrade stores');
    const ids = register.sections.map((section) => section.id);
    expect(ids).toContain('kept-after-erasure');
    expect(ids).toContain('account-and-sign-in-the-auth-service');
    expect(register.introHtml).toContain('href="#kept-after-erasure"');
    expect(register.sections.find((s) => s.id === 'kept-after-erasure')?.html).toContain('private.audit_log');
  });

  it('keeps links within the site and turns links into the source tree into their text', () => {
    const page = personalDataRegister(
      '# T\n\nSee [the policy](/privacy-policy), [below](#b) and [decision 185](decisions/185-x.md).\n\n## B\n\n| a | b |\n|---|---|\n| 1 | 2 |\n',
    );
    expect(page.introHtml).toContain('<a href="/privacy-policy">the policy</a>');
    expect(page.introHtml).toContain('<a href="#b">below</a>');
    expect(page.introHtml).toContain('decision 185');
    expect(page.introHtml).not.toContain('decisions/185-x.md');
    expect(page.sections[0]?.html).toMatch(/^<div role="region" tabindex="0" aria-label="B"[^>]*><table/);
    expect(anchorOf('Security, limits, mail, realtime')).toBe('security-limits-mail-realtime');
  });
});
