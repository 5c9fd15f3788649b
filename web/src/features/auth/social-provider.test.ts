import { describe, expect, it } from 'vitest';
import { providerLabel, socialProviderOf } from './social-provider.ts';

describe('socialProviderOf', () => {
  it('is the social provider /settings reports as enabled', () => {
    expect(socialProviderOf({ external: { apple: false, email: true, google: true, phone: false } })).toBe(
      'google',
    );
    expect(socialProviderOf({ external: { email: true, 'my-idp': true } })).toBe('my-idp');
  });

  it('is null when only built-in methods are on, or the answer is not what we expect', () => {
    expect(socialProviderOf({ external: { email: true, phone: true, anonymous_users: true } })).toBeNull();
    expect(socialProviderOf({ external: { google: 'yes' } })).toBeNull();
    expect(socialProviderOf({})).toBeNull();
    expect(socialProviderOf(null)).toBeNull();
    expect(socialProviderOf({ external: null })).toBeNull();
  });
});

describe('providerLabel', () => {
  it('names providers as people know them', () => {
    expect(providerLabel('google')).toBe('Google');
    expect(providerLabel('github')).toBe('GitHub');
    expect(providerLabel('linkedin_oidc')).toBe('LinkedIn');
    expect(providerLabel('acme_login')).toBe('Acme Login');
    expect(providerLabel('my-idp')).toBe('My Idp');
  });
});
