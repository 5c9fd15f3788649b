import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, jsonForHtml } from './spa.ts';

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
