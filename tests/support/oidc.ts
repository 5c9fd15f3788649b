import { OAuth2Server } from 'oauth2-mock-server';

/**
 * A real OpenID Connect provider on a free local port (oauth2-mock-server): discovery, JWKS,
 * authorization code flow with PKCE and nonce. `profile` sets the claims of the next ID tokens.
 */
export interface TestOidcProvider {
  issuer: string;
  server: OAuth2Server;
  profile: Record<string, unknown>;
  /** An ID token for the id_token grant, signed by the provider's key. */
  idToken(claims?: Record<string, unknown>, audience?: string): Promise<string>;
  close(): Promise<void>;
}

export async function startOidcProvider(clientId: string): Promise<TestOidcProvider> {
  const server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  await server.start(0, '127.0.0.1');
  const issuer = server.issuer.url as string;
  const provider: TestOidcProvider = {
    issuer,
    server,
    profile: { sub: 'johndoe', email: 'john.doe@example.com', email_verified: true, name: 'John Doe' },
    async idToken(claims = {}, audience = clientId) {
      return server.issuer.buildToken({
        scopesOrTransform: (_header, payload) => {
          Object.assign(payload, provider.profile, { aud: audience }, claims);
        },
      });
    },
    close: () => server.stop(),
  };
  // Every token the provider issues carries the current profile (sub, email, ...).
  server.service.on('beforeTokenSigning', (token) => {
    Object.assign(token.payload, provider.profile);
  });
  server.service.on('beforeUserinfo', (response) => {
    response.body = { ...provider.profile };
  });
  return provider;
}
