import { describe, expect, it } from 'vitest';
import { errorRedirect, globToRegExp, RedirectPolicy, withFragment, withQuery } from './redirects.ts';

describe('globToRegExp (GoTrue / gobwas glob semantics, separators . and /)', () => {
  it.each([
    ['https://*.example.com/**', 'https://app.example.com/auth/callback', true],
    ['https://*.example.com/**', 'https://a.b.example.com/x', false],
    ['https://**.example.com/**', 'https://a.b.example.com/x', true],
    ['https://example.com/*', 'https://example.com/welcome', true],
    ['https://example.com/*', 'https://example.com/a/b', false],
    ['https://example.com/?', 'https://example.com/a', true],
    ['https://example.com/[ab]', 'https://example.com/b', true],
    ['https://example.com/[!ab]', 'https://example.com/b', false],
    ['https://{app,www}.example.com', 'https://www.example.com', true],
    ['https://{app,www}.example.com', 'https://evil.example.com', false],
    ['https://example.com/\\*', 'https://example.com/*', true],
    ['https://example.com/\\*', 'https://example.com/x', false],
    ['myapp://callback', 'myapp://callback', true],
    ['https://example.com', 'https://example.com.evil.net', false],
  ])('%s matches %s: %s', (pattern, url, expected) => {
    expect(globToRegExp(pattern).test(url)).toBe(expected);
  });
});

describe('RedirectPolicy', () => {
  const policy = new RedirectPolicy('https://highgrade.example', [
    'https://*.highgrade.example/**',
    'myapp://auth/**',
  ]);

  it.each([
    ['https://highgrade.example/email-confirmed', true],
    ['https://highgrade.example/auth?tab=reset-confirm', true],
    ['https://highgrade.example:8443/x', false],
    ['http://highgrade.example/x', false],
    ['https://preview.highgrade.example/auth', true],
    ['myapp://auth/callback', true],
    ['http://localhost:5173/anything', true],
    ['http://127.0.0.1:9999/', true],
    ['https://evil.example/', false],
    ['https://highgrade.example.evil.example/', false],
    ['https://evil\\@preview.highgrade.example/', false],
    ['https://user:pass@highgrade.example/', false],
    ['https://2130706433/', false],
    [' https://highgrade.example/', false],
    ['https://highgrade.example/\tx', false],
    ['javascript:alert(1)', false],
    ['//evil.example', false],
    ['', false],
    [`https://highgrade.example/${'a'.repeat(3000)}`, false],
  ])('%s allowed: %s', (candidate, allowed) => {
    expect(policy.isAllowed(candidate)).toBe(allowed);
  });

  it('falls back to SITE_URL', () => {
    expect(policy.resolve('https://evil.example/')).toBe('https://highgrade.example');
    expect(policy.resolve(undefined)).toBe('https://highgrade.example');
    expect(policy.resolve('https://highgrade.example/x')).toBe('https://highgrade.example/x');
  });
});

describe('redirect URLs', () => {
  it('puts tokens in the fragment in a stable order and codes in the query', () => {
    expect(withFragment('https://a.example/x?y=1', { type: 'signup', access_token: 't' })).toBe(
      'https://a.example/x?y=1#access_token=t&type=signup',
    );
    expect(withQuery('https://a.example/auth?tab=reset-confirm', { code: 'c' })).toBe(
      'https://a.example/auth?tab=reset-confirm&code=c',
    );
  });

  it('puts errors in the fragment, and in the query for PKCE', () => {
    const error = { status: 403, code: 'otp_expired', message: 'Email link is invalid or has expired' };
    expect(errorRedirect('https://a.example/', error, false)).toBe(
      'https://a.example/#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired',
    );
    const pkce = new URL(errorRedirect('https://a.example/', error, true));
    expect(pkce.searchParams.get('error_code')).toBe('otp_expired');
  });
});
