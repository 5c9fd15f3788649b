import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { ConfigError } from './config.ts';
import { generateSigningJwk, resolveKeys, rotateSigningKey, signApiKey } from './keys.ts';

const none = { jwtSecret: undefined, anonKey: undefined, serviceRoleKey: undefined };

describe('resolveKeys', () => {
  it('generates Supabase-format keys on first start and keeps them', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'hg-keys-'));
    const first = await resolveKeys({ dataDir, ...none });
    expect(first.generated).toBe(true);
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(decodeJwt(first.anonKey)).toMatchObject({ role: 'anon', iss: 'supabase' });
    expect(decodeJwt(first.serviceRoleKey)).toMatchObject({ role: 'service_role' });
    expect((await stat(join(dataDir, 'keys.json'))).mode & 0o777).toBe(0o600);

    const second = await resolveKeys({ dataDir, ...none });
    expect(second).toEqual({ ...first, generated: false });
  });

  it('derives keys from a JWT_SECRET in the environment without writing it to disk', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'hg-keys-'));
    const jwtSecret = 'x'.repeat(40);
    const keys = await resolveKeys({ dataDir, ...none, jwtSecret });
    expect(keys.jwtSecret).toBe(jwtSecret);
    await expect(readFile(join(dataDir, 'keys.json'))).rejects.toThrow();
  });

  it('rejects an ANON_KEY that is not an anon key signed with the secret', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'hg-keys-'));
    const jwtSecret = 'y'.repeat(40);
    const wrongRole = await signApiKey(jwtSecret, 'service_role');
    await expect(resolveKeys({ dataDir, ...none, jwtSecret, anonKey: wrongRole })).rejects.toThrow(
      ConfigError,
    );
    const wrongSecret = await signApiKey('z'.repeat(40), 'anon');
    await expect(resolveKeys({ dataDir, ...none, jwtSecret, anonKey: wrongSecret })).rejects.toThrow(
      /ANON_KEY must be a JWT signed with JWT_SECRET/,
    );
  });

  it('generates an ES256 signing key on first start, keeps it, and keeps it verifying after a switch', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'hg-keys-'));
    const jwtSecret = 'w'.repeat(40);
    const first = await resolveKeys({ dataDir, ...none, jwtSecret, jwtSigningAlgorithm: 'ES256' });
    expect(first.asymmetric).toBe(true);
    expect(first.signingKeys).toHaveLength(1);
    expect(first.signingKeys[0]?.publicJwk).toMatchObject({
      kty: 'EC',
      crv: 'P-256',
      alg: 'ES256',
      use: 'sig',
    });
    expect(first.signingKeys[0]?.publicJwk).not.toHaveProperty('d');
    const stored = JSON.parse(await readFile(join(dataDir, 'keys.json'), 'utf8'));
    expect(stored).not.toHaveProperty('jwt_secret');
    expect((await stat(join(dataDir, 'keys.json'))).mode & 0o777).toBe(0o600);

    const again = await resolveKeys({ dataDir, ...none, jwtSecret, jwtSigningAlgorithm: 'ES256' });
    expect(again.signingKeys.map((key) => key.kid)).toEqual(first.signingKeys.map((key) => key.kid));

    const switched = await resolveKeys({ dataDir, ...none, jwtSecret, jwtSigningAlgorithm: 'RS256' });
    expect(switched.signingKeys.map((key) => key.alg)).toEqual(['RS256', 'ES256']);
    const back = await resolveKeys({ dataDir, ...none, jwtSecret });
    expect(back.asymmetric).toBe(false);
    expect(back.signingKeys).toHaveLength(2);
  });

  it('rotates to a new current key and keeps only the previous one', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'hg-keys-'));
    const jwtSecret = 'v'.repeat(40);
    const start = await resolveKeys({ dataDir, ...none, jwtSecret, jwtSigningAlgorithm: 'ES256' });
    const once = await rotateSigningKey(dataDir, 'ES256');
    const twice = await rotateSigningKey(dataDir, 'ES256');
    expect(once[1]?.kid).toBe(start.signingKeys[0]?.kid);
    expect(twice.map((key) => key.kid)).toEqual([twice[0]?.kid, once[0]?.kid]);
    const after = await resolveKeys({ dataDir, ...none, jwtSecret, jwtSigningAlgorithm: 'ES256' });
    expect(after.signingKeys.map((key) => key.kid)).toEqual(twice.map((key) => key.kid));
  });

  it('takes JWT_SIGNING_KEYS as given and names what is wrong with them', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'hg-keys-'));
    const jwtSecret = 'u'.repeat(40);
    const current = await generateSigningJwk('RS256');
    const keys = await resolveKeys({
      dataDir,
      ...none,
      jwtSecret,
      jwtSigningAlgorithm: 'RS256',
      jwtSigningKeys: JSON.stringify({ keys: [current] }),
    });
    expect(keys.signingKeys.map((key) => key.kid)).toEqual([current.kid]);
    await expect(readFile(join(dataDir, 'keys.json'))).rejects.toThrow();

    const { d: _d, ...publicOnly } = current;
    for (const [value, message] of [
      ['not json', /must be JSON/],
      ['[]', /at least one private JWK/],
      [JSON.stringify([publicOnly]), /must be a private key/],
      [JSON.stringify([{ ...current, kid: undefined }]), /needs a "kid"/],
      [JSON.stringify([{ kty: 'oct', k: 'abc', kid: 'x' }]), /EC P-256 \(ES256\) or RSA \(RS256\)/],
    ] as const) {
      await expect(
        resolveKeys({ dataDir, ...none, jwtSecret, jwtSigningAlgorithm: 'RS256', jwtSigningKeys: value }),
      ).rejects.toThrow(message);
    }
  });

  it('derives the publishable and secret keys from the secret, or takes them from the environment', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'hg-keys-'));
    const jwtSecret = 't'.repeat(40);
    const keys = await resolveKeys({ dataDir, ...none, jwtSecret });
    expect(keys.publishableKey).toMatch(/^sb_publishable_[A-Za-z0-9]{22}_[A-Za-z0-9]{8}$/);
    expect(keys.secretKey).toMatch(/^sb_secret_[A-Za-z0-9]{22}_[A-Za-z0-9]{8}$/);
    expect((await resolveKeys({ dataDir, ...none, jwtSecret })).secretKey).toBe(keys.secretKey);
    expect((await resolveKeys({ dataDir, ...none, jwtSecret: 's'.repeat(40) })).secretKey).not.toBe(
      keys.secretKey,
    );
    const given = `sb_secret_${'a'.repeat(30)}`;
    expect((await resolveKeys({ dataDir, ...none, jwtSecret, secretKey: given })).secretKey).toBe(given);
    await expect(
      resolveKeys({ dataDir, ...none, jwtSecret, secretKey: 'sb_publishable_xyz' }),
    ).rejects.toThrow(/SECRET_KEY must start with "sb_secret_"/);
  });
});
