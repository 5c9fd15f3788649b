import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, jsonForHtml, markSocialSignIn } from './spa.ts';

describe('jsonForHtml', () => {
  it('cannot close the script element it is placed in', () => {
    const text = jsonForHtml({ siteName: '</script><script>alert(1)</script>', x: '\u2028&' });
    expect(text).not.toContain('<');
    expect(text).not.toContain('>');
    expect(JSON.parse(text)).toEqual({ siteName: '</script><script>alert(1)</script>', x: '\u2028&' });
  });
});

describe('contentSecurityPolicy', () => {
  it('allows only our scripts and nonce-carrying styles', () => {
    const policy = contentSecurityPolicy('abc', null);
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("style-src 'self' 'nonce-abc'");
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).not.toContain('unsafe-eval');
  });

  it('lets the page reach an API on another origin, over http and websocket', () => {
    expect(contentSecurityPolicy('n', 'https://api.example')).toContain(
      "connect-src 'self' https://api.example wss://api.example",
    );
  });
});

describe('contentSecurityPolicy for a prerendered page', () => {
  it("allows that page's own style attributes by hash, and no other inline style", () => {
    const policy = contentSecurityPolicy('n', null, ['sha256-a=', 'sha256-b=']);
    expect(policy).toContain("style-src 'self' 'nonce-n' 'unsafe-hashes' 'sha256-a=' 'sha256-b='");
    expect(policy).not.toContain('unsafe-inline');
    expect(contentSecurityPolicy('n', null, [])).not.toContain('unsafe-hashes');
  });
});

describe('markSocialSignIn', () => {
  it('marks the document only when no social provider is configured', () => {
    const html = '<!doctype html>\n<html lang="en">\n<head></head></html>';
    expect(markSocialSignIn(html, false)).toContain('<html data-social-sign-in="none" lang="en">');
    expect(markSocialSignIn(html, true)).toBe(html);
  });
});
