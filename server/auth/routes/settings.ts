import type { FastifyInstance } from 'fastify';
import type { AuthDeps } from '../auth.ts';

const KNOWN_PROVIDERS = [
  'anonymous_users',
  'apple',
  'azure',
  'bitbucket',
  'discord',
  'facebook',
  'figma',
  'fly',
  'github',
  'gitlab',
  'google',
  'keycloak',
  'kakao',
  'linkedin',
  'linkedin_oidc',
  'nextcloud',
  'notion',
  'spotify',
  'slack',
  'slack_oidc',
  'workos',
  'twitch',
  'twitter',
  'x',
  'email',
  'phone',
  'zoom',
  'web3_solana',
  'web3_ethereum',
];

/**
 * GET /settings — which sign-in methods are on. The web app reads `external` to learn which social
 * provider to offer (the one named by OAUTH_PROVIDER, even when it is not one GoTrue knows).
 */
export default function settings(app: FastifyInstance, deps: AuthDeps): void {
  const external: Record<string, boolean> = Object.fromEntries(KNOWN_PROVIDERS.map((name) => [name, false]));
  external.email = true;
  external.anonymous_users = deps.config.enableAnonymousUsers;
  if (deps.provider) external[deps.provider.name] = true;
  const body = {
    external,
    disable_signup: deps.config.disableSignup,
    mailer_autoconfirm: deps.config.enableEmailAutoconfirm,
    phone_autoconfirm: false,
    sms_provider: '',
    saml_enabled: false,
    passkeys_enabled: deps.config.auth.passkey.enabled,
  };
  app.get('/settings', { config: { access: 'public' } }, async () => body);
}
