/**
 * The one social sign-in provider (product §auth-screen: "a social login button (the only provider)"), as
 * `GET /auth/v1/settings` reports it under `external` (decision 017).
 */
const NOT_SOCIAL = new Set([
  'email',
  'phone',
  'anonymous_users',
  'saml',
  'sso',
  'web3_solana',
  'web3_ethereum',
]);

const LABELS: Record<string, string> = {
  apple: 'Apple',
  azure: 'Microsoft',
  bitbucket: 'Bitbucket',
  discord: 'Discord',
  facebook: 'Facebook',
  figma: 'Figma',
  github: 'GitHub',
  gitlab: 'GitLab',
  google: 'Google',
  kakao: 'Kakao',
  keycloak: 'Keycloak',
  linkedin: 'LinkedIn',
  linkedin_oidc: 'LinkedIn',
  notion: 'Notion',
  slack: 'Slack',
  slack_oidc: 'Slack',
  spotify: 'Spotify',
  twitch: 'Twitch',
  twitter: 'X',
  x: 'X',
  zoom: 'Zoom',
};

/** The provider to offer, or null when none is configured. */
export function socialProviderOf(settings: unknown): string | null {
  if (!settings || typeof settings !== 'object' || !('external' in settings)) return null;
  const external = settings.external;
  if (!external || typeof external !== 'object') return null;
  for (const [name, enabled] of Object.entries(external)) {
    if (enabled === true && !NOT_SOCIAL.has(name)) return name;
  }
  return null;
}

/** "Google" for google; a provider we do not know is shown by its name, words capitalised. */
export function providerLabel(provider: string): string {
  return (
    LABELS[provider] ??
    provider
      .split(/[_:-]+/)
      .filter(Boolean)
      .map((word) => word[0]?.toUpperCase() + word.slice(1))
      .join(' ')
  );
}
