import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importJWK, type JWK, SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { generateSigningJwk, resolveKeys, secretBytes } from '../keys.ts';
import { JwtError, JwtVerifier } from './jwt.ts';

const SECRET = 'a-test-secret-that-is-long-enough-1234567890';

function sign(claims: Record<string, unknown>, options: { secret?: string; expiresIn?: number } = {}) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt(now)
    .setExpirationTime(now + (options.expiresIn ?? 3600))
    .sign(secretBytes(options.secret ?? SECRET));
}

async function failure(verifier: JwtVerifier, token: string) {
  try {
    await verifier.verify(token);
  } catch (error) {
    return error instanceof JwtError ? error.reason : 'other';
  }
  return 'accepted';
}

describe('JwtVerifier', () => {
  it('accepts tokens signed with the secret', async () => {
    const claims = await new JwtVerifier(SECRET).verify(await sign({ role: 'authenticated', sub: 'u1' }));
    expect(claims).toMatchObject({ role: 'authenticated', sub: 'u1' });
  });

  it('rejects forged, unsigned, expired and malformed tokens', async () => {
    const verifier = new JwtVerifier(SECRET);
    expect(
      await failure(
        verifier,
        await sign({ role: 'service_role' }, { secret: 'another-secret-another-secret-123' }),
      ),
    ).toBe('invalid');
    expect(await failure(verifier, new UnsecuredJWT({ role: 'service_role' }).encode())).toBe('invalid');
    expect(await failure(verifier, await sign({ role: 'anon' }, { expiresIn: -10 }))).toBe('expired');
    expect(await failure(verifier, 'not.a.jwt')).toBe('invalid');
    expect(await failure(verifier, '')).toBe('invalid');
    expect(await failure(verifier, 'x'.repeat(20_000))).toBe('invalid');
  });

  it('rejects a cached token once it expires', async () => {
    const verifier = new JwtVerifier(SECRET);
    const token = await sign({ role: 'anon' }, { expiresIn: 1 });
    await verifier.verify(token);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect(await failure(verifier, token)).toBe('expired');
  });

  it('keeps at most maxEntries tokens', async () => {
    const verifier = new JwtVerifier(SECRET, 2);
    const tokens = await Promise.all([1, 2, 3].map((n) => sign({ role: 'anon', n })));
    for (const token of tokens) await verifier.verify(token);
    expect((verifier as unknown as { cache: Map<string, unknown> }).cache.size).toBe(2);
  });

  it('verifies ES256 tokens by kid, and the new API keys as the roles they stand for', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'hg-jwt-'));
    const keys = await resolveKeys({
      dataDir,
      jwtSecret: SECRET,
      anonKey: undefined,
      serviceRoleKey: undefined,
      jwtSigningAlgorithm: 'ES256',
    });
    const verifier = await JwtVerifier.forKeys(keys);
    const signWith = async (jwk: JWK, kid: string, alg = 'ES256') =>
      new SignJWT({ role: 'authenticated', sub: 'u2' })
        .setProtectedHeader({ alg, kid })
        .setExpirationTime('1h')
        .sign(await importJWK(jwk, alg));
    const current = keys.signingKeys[0];
    if (!current) throw new Error('no signing key');
    expect(await verifier.verify(await signWith(current.privateJwk, current.kid))).toMatchObject({
      sub: 'u2',
    });
    // Another key under the same kid, an unknown kid, a key of another algorithm: all refused.
    const foreign = await generateSigningJwk('ES256');
    expect(await failure(verifier, await signWith(foreign, current.kid))).toBe('invalid');
    expect(await failure(verifier, await signWith(current.privateJwk, 'other'))).toBe('invalid');
    expect(
      await failure(verifier, await signWith(await generateSigningJwk('RS256'), current.kid, 'RS256')),
    ).toBe('invalid');
    // HS256 with the secret keeps working beside it.
    expect(await verifier.verify(await sign({ role: 'anon' }))).toMatchObject({ role: 'anon' });

    expect(await verifier.verify(keys.publishableKey)).toEqual({ iss: 'supabase', role: 'anon' });
    expect(await verifier.verify(keys.secretKey)).toEqual({ iss: 'supabase', role: 'service_role' });
    expect(verifier.apiKeyRole(`${keys.secretKey}x`)).toBeUndefined();
    expect(await failure(verifier, 'sb_secret_not-this-project')).toBe('invalid');
  });
});
