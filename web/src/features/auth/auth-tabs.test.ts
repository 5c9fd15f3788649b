import { describe, expect, it } from 'vitest';
import { AUTH_TAB_LABELS, parseAuthTab, visibleAuthTabs } from './auth-tabs.ts';

describe('auth tabs', () => {
  it('takes the tab from the query parameter and defaults to signin', () => {
    expect(parseAuthTab('signup')).toBe('signup');
    expect(parseAuthTab('reset')).toBe('reset');
    expect(parseAuthTab('reset-confirm')).toBe('reset-confirm');
    expect(parseAuthTab(null)).toBe('signin');
    expect(parseAuthTab('')).toBe('signin');
    expect(parseAuthTab('SIGNUP')).toBe('signin');
    expect(parseAuthTab('__proto__')).toBe('signin');
  });

  it('shows Sign In and Reset Password only in reset-confirm mode', () => {
    expect(visibleAuthTabs('reset-confirm').map((tab) => AUTH_TAB_LABELS[tab])).toEqual([
      'Sign In',
      'Reset Password',
    ]);
    for (const tab of ['signin', 'signup', 'reset'] as const) {
      expect(visibleAuthTabs(tab).map((t) => AUTH_TAB_LABELS[t])).toEqual(['Sign In', 'Sign Up', 'Reset']);
    }
  });
});
