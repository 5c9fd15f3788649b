/** The tabs of the authentication screen (product §auth-screen), keyed by the `tab` query parameter. */
export const AUTH_TABS = ['signin', 'signup', 'reset', 'reset-confirm'] as const;
export type AuthTab = (typeof AUTH_TABS)[number];

export const AUTH_TAB_LABELS: Record<AuthTab, string> = {
  signin: 'Sign In',
  signup: 'Sign Up',
  reset: 'Reset',
  'reset-confirm': 'Reset Password',
};

/** The active tab: the query parameter when it names a tab, else signin. */
export function parseAuthTab(value: string | null | undefined): AuthTab {
  return (AUTH_TABS as readonly string[]).includes(value ?? '') ? (value as AuthTab) : 'signin';
}

/** In reset-confirm mode only Sign In and Reset Password show; otherwise Sign In, Sign Up and Reset. */
export function visibleAuthTabs(active: AuthTab): AuthTab[] {
  return active === 'reset-confirm' ? ['signin', 'reset-confirm'] : ['signin', 'signup', 'reset'];
}
