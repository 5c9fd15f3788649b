/**
 * WebAuthn as an MFA factor (issue 24, decision 149) through the oldest supabase-js supported (2.109,
 * alias `supabase-js-oldest`) and the one the app ships: `mfa.enroll({ factorType: 'webauthn' })`,
 * `mfa.challenge` (registration options, later assertion options) and `mfa.verify` with the
 * credential a software authenticator (tests/support/webauthn.ts: P-256, "none" attestation) makes.
 */
import { createClient as createApp, type SupabaseClient } from '@supabase/supabase-js';
import { decodeJwt } from 'jose';
import { createClient as createOldest } from 'supabase-js-oldest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { adminClient } from '#tests/support/clients.ts';
import { type ServerProcess, startServerProcess } from '#tests/support/server-process.ts';
import { uniqueEmail } from '#tests/support/users.ts';
import { SoftwareAuthenticator } from '#tests/support/webauthn.ts';

const PASSWORD = 'correct horse battery';

const CLIENTS = [
  ['supabase-js 2.109 (the oldest supported)', createOldest as unknown as typeof createApp],
  ['supabase-js of the app (the newest)', createApp],
] as const;

type Options = { challenge: unknown; rp?: { id?: string }; rpId?: string };
interface WebAuthnChallenge {
  id: string;
  type: string;
  expires_at: number;
  webauthn: { type: 'create' | 'request'; credential_options: { publicKey: Options } };
}

describe.each(CLIENTS)('%s', (_name, create) => {
  function client(server: ServerProcess): SupabaseClient {
    return create(server.url, server.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: WebSocket as never },
    });
  }

  async function member(server: ServerProcess) {
    const email = uniqueEmail('webauthn');
    await adminClient(server).auth.admin.createUser({ email, password: PASSWORD, email_confirm: true });
    const supabase = client(server);
    expect((await supabase.auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
    return { supabase, email };
  }

  describe('with WebAuthn MFA off (the default)', () => {
    let server: ServerProcess;
    beforeAll(async () => {
      server = await startServerProcess();
    });
    afterAll(() => server?.close());

    it('refuses to enrol a WebAuthn factor with GoTrue’s answer', async () => {
      const { supabase } = await member(server);
      const { error } = await supabase.auth.mfa.enroll({
        factorType: 'webauthn',
        friendlyName: 'Key',
      } as never);
      expect(error).toMatchObject({
        status: 422,
        code: 'mfa_webauthn_enroll_not_enabled',
        message: 'MFA enroll is disabled for WebAuthn',
      });
    });
  });

  describe('with MFA_WEBAUTHN_ENROLL_ENABLED and MFA_WEBAUTHN_VERIFY_ENABLED', () => {
    let server: ServerProcess;
    beforeAll(async () => {
      server = await startServerProcess({
        MFA_WEBAUTHN_ENROLL_ENABLED: 'true',
        MFA_WEBAUTHN_VERIFY_ENABLED: 'true',
      });
    });
    afterAll(() => server?.close());

    async function challenge(supabase: SupabaseClient, factorId: string): Promise<WebAuthnChallenge> {
      const { data, error } = await supabase.auth.mfa.challenge({ factorId } as never);
      expect(error).toBeNull();
      return data as unknown as WebAuthnChallenge;
    }

    async function verify(
      supabase: SupabaseClient,
      factorId: string,
      challengeId: string,
      type: 'create' | 'request',
      credential: unknown,
    ) {
      return supabase.auth.mfa.verify({
        factorId,
        challengeId,
        webauthn: { rpId: '127.0.0.1', type, credential_response: credential },
      } as never);
    }

    it('enrols a security key, raises the session to aal2, and asks it again at the next sign-in', async () => {
      const { supabase, email } = await member(server);
      const key = new SoftwareAuthenticator(server.siteUrl);
      const enrolled = await supabase.auth.mfa.enroll({
        factorType: 'webauthn',
        friendlyName: 'Key',
      } as never);
      expect(enrolled.error).toBeNull();
      expect(enrolled.data).toEqual({ id: expect.any(String), type: 'webauthn', friendly_name: 'Key' });
      const factorId = (enrolled.data as { id: string }).id;

      const registration = await challenge(supabase, factorId);
      expect(registration).toMatchObject({ type: 'webauthn', webauthn: { type: 'create' } });
      const publicKey = registration.webauthn.credential_options.publicKey;
      expect(publicKey.rp).toMatchObject({ id: '127.0.0.1', name: 'HighGrade' });
      const created = await verify(supabase, factorId, registration.id, 'create', key.create(publicKey));
      expect(created.error).toBeNull();
      const token = decodeJwt((created.data as { access_token: string }).access_token);
      expect(token.aal).toBe('aal2');
      expect((token.amr as { method: string }[]).map((claim) => claim.method)).toContain('mfa/webauthn');
      const factors = await supabase.auth.mfa.listFactors();
      expect(factors.data?.all).toEqual([
        expect.objectContaining({
          id: factorId,
          factor_type: 'webauthn',
          status: 'verified',
          friendly_name: 'Key',
        }),
      ]);

      // A new sign-in is aal1 until the key answers an assertion.
      const again = client(server);
      await again.auth.signInWithPassword({ email, password: PASSWORD });
      const level = await again.auth.mfa.getAuthenticatorAssuranceLevel();
      expect(level.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });
      const assertion = await challenge(again, factorId);
      expect(assertion.webauthn.type).toBe('request');
      const options = assertion.webauthn.credential_options.publicKey;
      const answered = await verify(again, factorId, assertion.id, 'request', key.get(options));
      expect(answered.error).toBeNull();
      expect(decodeJwt((answered.data as { access_token: string }).access_token).aal).toBe('aal2');
      // The challenge is used up.
      const replay = await verify(again, factorId, assertion.id, 'request', key.get(options));
      expect(replay.error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });
    });

    it('refuses an assertion for another relying party, and the key’s factor can be removed at aal2', async () => {
      const { supabase } = await member(server);
      const key = new SoftwareAuthenticator(server.siteUrl);
      const enrolled = await supabase.auth.mfa.enroll({ factorType: 'webauthn' } as never);
      const factorId = (enrolled.data as { id: string }).id;
      const registration = await challenge(supabase, factorId);
      const publicKey = registration.webauthn.credential_options.publicKey;
      expect(
        (await verify(supabase, factorId, registration.id, 'create', key.create(publicKey))).error,
      ).toBeNull();

      const assertion = await challenge(supabase, factorId);
      const options = assertion.webauthn.credential_options.publicKey;
      const wrong = await verify(
        supabase,
        factorId,
        assertion.id,
        'request',
        key.get(options, { rpId: 'evil.example' }),
      );
      expect(wrong.error).toMatchObject({
        status: 422,
        code: 'mfa_verification_failed',
        message: 'Invalid WebAuthn credential_response',
      });
      const removed = await supabase.auth.mfa.unenroll({ factorId });
      expect(removed.error).toBeNull();
      expect((await supabase.auth.mfa.listFactors()).data?.all).toEqual([]);
    });
  });
});
