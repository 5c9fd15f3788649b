/**
 * Passkeys (issue 24, decision 149) through the app's supabase-js (the newest; `auth.passkey` is not in
 * 2.109, the oldest supported, which therefore has nothing to test here): registration by a signed-in
 * member, sign-in with the passkey alone, list, rename and delete — with a software authenticator
 * (tests/support/webauthn.ts). PASSKEY_ENABLED is off by default: every route answers 404.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { adminClient } from '#tests/support/clients.ts';
import { type ServerProcess, startServerProcess } from '#tests/support/server-process.ts';
import { uniqueEmail } from '#tests/support/users.ts';
import { SoftwareAuthenticator } from '#tests/support/webauthn.ts';

const PASSWORD = 'correct horse battery';

type Options = { challenge: string; rp?: { id?: string }; rpId?: string; user?: { id?: string } };

function client(server: ServerProcess): SupabaseClient {
  return createClient(server.url, server.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
  });
}

async function member(server: ServerProcess) {
  const email = uniqueEmail('passkey');
  const created = await adminClient(server).auth.admin.createUser({
    email,
    password: PASSWORD,
    email_confirm: true,
  });
  const supabase = client(server);
  expect((await supabase.auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
  return { supabase, email, id: created.data.user?.id as string };
}

describe('with PASSKEY_ENABLED off (the default)', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess();
  });
  afterAll(() => server?.close());

  it('answers GoTrue’s 404 passkey_disabled', async () => {
    const { error } = await client(server).auth.passkey.startAuthentication();
    expect(error).toMatchObject({ status: 404, code: 'passkey_disabled', message: 'Passkeys are disabled' });
  });
});

describe('with PASSKEY_ENABLED=true', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess({ PASSKEY_ENABLED: 'true', ENABLE_ANONYMOUS_USERS: 'true' });
  });
  afterAll(() => server?.close());

  async function register(supabase: SupabaseClient, key: SoftwareAuthenticator) {
    const started = await supabase.auth.passkey.startRegistration();
    expect(started.error).toBeNull();
    const { challenge_id, options } = started.data as unknown as { challenge_id: string; options: Options };
    expect(options).toMatchObject({
      rp: { id: '127.0.0.1', name: 'HighGrade' },
      attestation: 'none',
      authenticatorSelection: { residentKey: 'required' },
    });
    return supabase.auth.passkey.verifyRegistration({
      challengeId: challenge_id,
      credential: key.create(options).toJSON(),
    } as never);
  }

  async function signInWith(key: SoftwareAuthenticator, overrides: { rpId?: string } = {}) {
    const supabase = client(server);
    const started = await supabase.auth.passkey.startAuthentication();
    expect(started.error).toBeNull();
    const { challenge_id, options } = started.data as unknown as { challenge_id: string; options: Options };
    const verified = await supabase.auth.passkey.verifyAuthentication({
      challengeId: challenge_id,
      credential: key.get(options, overrides).toJSON(),
    } as never);
    return { supabase, verified };
  }

  it('reports passkeys_enabled in /settings, as GoTrue', async () => {
    const settings = await fetch(`${server.url}/auth/v1/settings`, { headers: { apikey: server.anonKey } });
    expect(((await settings.json()) as { passkeys_enabled: boolean }).passkeys_enabled).toBe(true);
  });

  it('registers a passkey, signs in with it alone, lists, renames and deletes it', async () => {
    const { supabase, id, email } = await member(server);
    const key = new SoftwareAuthenticator(server.siteUrl);
    const registered = await register(supabase, key);
    expect(registered.error).toBeNull();
    expect(registered.data).toEqual({ id: expect.any(String), created_at: expect.any(String) });
    const passkeyId = (registered.data as { id: string }).id;

    const { supabase: signedIn, verified } = await signInWith(key);
    expect(verified.error).toBeNull();
    const session = (
      verified.data as { session: { access_token: string; user: { id: string; email: string } } }
    ).session;
    expect(session.user).toMatchObject({ id, email });
    const claims = decodeJwt(session.access_token);
    expect(claims).toMatchObject({ sub: id, aal: 'aal1' });
    expect((claims.amr as { method: string }[]).map((claim) => claim.method)).toEqual(['passkey']);
    expect((await signedIn.auth.getUser()).data.user?.id).toBe(id);

    const listed = await supabase.auth.passkey.list();
    expect(listed.data).toEqual([
      { id: passkeyId, created_at: expect.any(String), last_used_at: expect.any(String) },
    ]);
    const renamed = await supabase.auth.passkey.update({ passkeyId, friendlyName: 'Laptop' } as never);
    expect(renamed.data).toMatchObject({ id: passkeyId, friendly_name: 'Laptop' });
    // The GDPR export names the passkey, without its key material.
    const exported = await supabase.functions.invoke('gdpr-data-export');
    expect(exported.data.account.passkeys).toEqual([
      {
        friendly_name: 'Laptop',
        aaguid: '00000000-0000-0000-0000-000000000000',
        created_at: expect.any(String),
        last_used_at: expect.any(String),
      },
    ]);
    expect((await supabase.auth.passkey.delete({ passkeyId } as never)).error).toBeNull();
    expect((await supabase.auth.passkey.list()).data).toEqual([]);
    // A deleted passkey signs nobody in.
    const { verified: refused } = await signInWith(key);
    expect(refused.error).toMatchObject({ status: 400, code: 'webauthn_verification_failed' });
  });

  it('lets the service key list and delete a member’s passkeys (admin API)', async () => {
    const { supabase, id } = await member(server);
    const key = new SoftwareAuthenticator(server.siteUrl);
    const registered = await register(supabase, key);
    const passkeyId = (registered.data as { id: string }).id;
    const admin = adminClient(server);
    const listed = await admin.auth.admin.passkey.listPasskeys({ userId: id } as never);
    expect(listed.data).toEqual([{ id: passkeyId, created_at: expect.any(String) }]);
    expect(
      (await admin.auth.admin.passkey.deletePasskey({ userId: id, passkeyId } as never)).error,
    ).toBeNull();
    expect((await supabase.auth.passkey.list()).data).toEqual([]);
    const missing = await admin.auth.admin.passkey.deletePasskey({ userId: id, passkeyId } as never);
    expect(missing.error).toMatchObject({ status: 404 });
  });

  it('refuses a used challenge, an assertion for another relying party, and anonymous users', async () => {
    const { supabase } = await member(server);
    const key = new SoftwareAuthenticator(server.siteUrl);
    expect((await register(supabase, key)).error).toBeNull();
    const { verified: wrong } = await signInWith(key, { rpId: 'evil.example' });
    expect(wrong.error).toMatchObject({ status: 400, code: 'webauthn_verification_failed' });

    const fresh = client(server);
    const started = await fresh.auth.passkey.startAuthentication();
    const { challenge_id, options } = started.data as unknown as { challenge_id: string; options: Options };
    const credential = key.get(options).toJSON();
    expect(
      (await fresh.auth.passkey.verifyAuthentication({ challengeId: challenge_id, credential } as never))
        .error,
    ).toBeNull();
    const again = await fresh.auth.passkey.verifyAuthentication({
      challengeId: challenge_id,
      credential,
    } as never);
    expect(again.error).toMatchObject({ status: 400, code: 'webauthn_challenge_not_found' });

    const guest = client(server);
    await guest.auth.signInAnonymously();
    const anonymous = await guest.auth.passkey.startRegistration();
    expect(anonymous.error).toMatchObject({
      status: 403,
      code: 'no_authorization',
      message: 'Anonymous user not allowed to perform these actions',
    });
  });
});
