/** The tabs of the authentication screen (product §auth-screen), keyed by the `tab` query parameter. */
export const AUTH_TABS = ['signin', 'signup', 'reset', 'reset-confirm'] as const;
export type AuthTab = (typeof AUTH_TABS)[number];

export const AUTH_TAB_LABELS: Record<AuthTab, string> = {
  signin: 'Sign In',
  signup: 'Sign Up',
  reset: 'Reset',
  'reset-confirm': 'Reset Password',
};

/**
 * What the screen says under the product's name, by tab: the spec's sign-in subtitle on Sign In, and
 * what each other tab is for (issue 34: Sign Up said "Sign in to …").
 */
export const AUTH_TAB_DESCRIPTIONS: Record<AuthTab, string> = {
  signin: 'Sign in to access premium cannabis marketplace',
  signup: 'Create your free account: it starts with a free trial of the Scammer Network.',
  reset: 'Forgot your password? We email you a way to set a new one.',
  'reset-confirm': 'Choose a new password for your account.',
};

/** The active tab: the query parameter when it names a tab, else signin. */
export function parseAuthTab(value: string | null | undefined): AuthTab {
  return (AUTH_TABS as readonly string[]).includes(value ?? '') ? (value as AuthTab) : 'signin';
}

/** In reset-confirm mode only Sign In and Reset Password show; otherwise Sign In, Sign Up and Reset. */
export function visibleAuthTabs(active: AuthTab): AuthTab[] {
  return active === 'reset-confirm' ? ['signin', 'reset-confirm'] : ['signin', 'signup', 'reset'];
}
