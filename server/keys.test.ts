import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { ConfigError } from './config.ts';
import { resolveKeys, signApiKey } from './keys.ts';

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
});
