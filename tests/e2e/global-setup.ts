import { randomBytes } from 'node:crypto';
import { ensureWebBuild } from '#server/web-build.ts';
import { startOidcProvider } from '#tests/support/oidc.ts';
import { startE2eServer } from './support/server.ts';

/** The social provider's client id at the local OpenID Connect server. */
const OIDC_CLIENT_ID = 'highgrade-e2e';

/**
 * Starts a local OpenID Connect provider (oauth2-mock-server) and the real server (as `npm start`
 * does) configured with it as the social provider ("google"), on a free port with a fresh DATA_DIR,
 * unless E2E_BASE_URL already points at a running server. Workers read E2E_BASE_URL, E2E_DATA_DIR
 * (the mail outbox), the API keys and the social account's address from the environment set here.
 */
export default async function globalSetup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env.E2E_BASE_URL) return undefined;
  await ensureWebBuild((message) => process.stdout.write(`${message}\n`));
  const provider = await startOidcProvider(OIDC_CLIENT_ID);
  // The provider signs in one person; a fresh address per run keeps runs apart.
  const socialEmail = `social-${randomBytes(4).toString('hex')}@example.com`;
  provider.profile = { sub: socialEmail, email: socialEmail, email_verified: true, name: 'Sam Social' };
  const server = await startE2eServer({
    OAUTH_PROVIDER: 'google',
    OAUTH_CLIENT_ID: OIDC_CLIENT_ID,
    OAUTH_CLIENT_SECRET: 'e2e-secret',
    OAUTH_ISSUER: provider.issuer,
    // The news tests serve their feeds on loopback; no scheduled fetch of the shipped sources (the
    // internet is not reached from tests).
    NEWS_ALLOW_PRIVATE_HOSTS: 'true',
    NEWS_REFRESH_MINUTES: '0',
    // Pass or Gas: fresh test accounts' votes count at once (the waiting period has integration tests).
    VOTE_MIN_ACCOUNT_AGE_HOURS: '0',
  }).catch(async (error: unknown) => {
    await provider.close();
    throw error;
  });
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_DATA_DIR = server.dataDir;
  process.env.E2E_ANON_KEY = server.anonKey;
  process.env.E2E_SERVICE_ROLE_KEY = server.serviceRoleKey;
  process.env.E2E_SOCIAL_EMAIL = socialEmail;
  return async () => {
    await server.stop();
    await provider.close();
  };
}
