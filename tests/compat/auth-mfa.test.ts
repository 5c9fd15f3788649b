import { decodeJwt } from 'jose';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, clientFor } from '#tests/support/clients.ts';
import { type ServerProcess, startServerProcess } from '#tests/support/server-process.ts';
import { uniqueEmail } from '#tests/support/users.ts';

/** TOTP multi-factor authentication through supabase.auth.mfa, codes computed as an authenticator app does. */

const PASSWORD = 'correct horse battery';

let server: ServerProcess;
beforeAll(async () => {
  server = await startServerProcess();
});
afterAll(() => server?.close());

/** The code an authenticator app shows `stepsAhead` periods from now (one step of skew is accepted). */
function codeFor(secret: string, stepsAhead = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
  return totp.generate({ timestamp: Date.now() + stepsAhead * 30_000 });
}

async function member() {
  const email = uniqueEmail('mfa');
  await adminClient(server).auth.admin.createUser({ email, password: PASSWORD, email_confirm: true });
  const supabase = clientFor(server);
  await supabase.auth.signInWithPassword({ email, password: PASSWORD });
  return { supabase, email };
}

describe('TOTP factors', () => {
  it('enrolls, challenges and verifies to aal2', async () => {
    const { supabase, email } = await member();
    const { data: enrolled, error } = await supabase.auth.mfa.enroll({
      factorType: 'totp',
      friendlyName: 'Phone app',
    });
    expect(error).toBeNull();
    expect(enrolled).toMatchObject({ type: 'totp', friendly_name: 'Phone app' });
    const totp = (enrolled as { totp: { qr_code: string; secret: string; uri: string } }).totp;
    expect(totp.qr_code.startsWith('data:image/svg+xml;utf-8,<svg')).toBe(true);
    expect(totp.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(totp.uri).toBe(
      `otpauth://totp/127.0.0.1:${encodeURIComponent(email)}?issuer=127.0.0.1&secret=${totp.secret}&algorithm=SHA1&digits=6&period=30`,
    );
    const factorId = (enrolled as { id: string }).id;

    const before = await supabase.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(before.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal1' });

    const { data: challenge, error: challengeError } = await supabase.auth.mfa.challenge({ factorId });
    expect(challengeError).toBeNull();
    expect(challenge).toMatchObject({ type: 'totp' });
    expect((challenge as { expires_at: number }).expires_at).toBeGreaterThan(Date.now() / 1000 + 250);

    const wrong = await supabase.auth.mfa.verify({
      factorId,
      challengeId: (challenge as { id: string }).id,
      code: codeFor(totp.secret, 5),
    });
    expect(wrong.error).toMatchObject({
      status: 422,
      code: 'mfa_verification_failed',
      message: 'Invalid TOTP code entered',
    });

    const code = codeFor(totp.secret);
    const { data: verified, error: verifyError } = await supabase.auth.mfa.verify({
      factorId,
      challengeId: (challenge as { id: string }).id,
      code,
    });
    expect(verifyError).toBeNull();
    const claims = decodeJwt((verified as { access_token: string }).access_token);
    expect(claims.aal).toBe('aal2');
    expect((claims.amr as { method: string }[]).map((entry) => entry.method)).toEqual(['totp', 'password']);

    const after = await supabase.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(after.data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' });
    const { data: factors } = await supabase.auth.mfa.listFactors();
    expect(factors?.totp).toHaveLength(1);
    expect(factors?.totp[0]).toMatchObject({ id: factorId, status: 'verified', factor_type: 'totp' });

    // The refreshed session keeps aal2.
    const refreshed = await supabase.auth.refreshSession();
    expect(decodeJwt(refreshed.data.session?.access_token as string).aal).toBe('aal2');

    // A code is accepted once: the same code on a new challenge is refused.
    const replay = await supabase.auth.mfa.challengeAndVerify({ factorId, code });
    expect(replay.error).toMatchObject({ code: 'mfa_verification_failed' });

    // A new sign-in starts at aal1 and must step up.
    const device = clientFor(server);
    await device.auth.signInWithPassword({ email, password: PASSWORD });
    const pending = await device.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(pending.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });
    const stepUp = await device.auth.mfa.challengeAndVerify({ factorId, code: codeFor(totp.secret, 1) });
    expect(stepUp.error).toBeNull();
    expect((await device.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe('aal2');
  });

  it('guards enrolment and unenrolment by assurance level', async () => {
    const { supabase, email } = await member();
    const { data: first } = await supabase.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'first' });
    const factorId = (first as { id: string }).id;
    const secret = (first as { totp: { secret: string } }).totp.secret;
    expect(
      (await supabase.auth.mfa.challengeAndVerify({ factorId, code: codeFor(secret) })).error,
    ).toBeNull();

    const aal1 = clientFor(server);
    await aal1.auth.signInWithPassword({ email, password: PASSWORD });
    const enrollAtAal1 = await aal1.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'second' });
    expect(enrollAtAal1.error).toMatchObject({ status: 422, code: 'insufficient_aal' });
    const unenrollAtAal1 = await aal1.auth.mfa.unenroll({ factorId });
    expect(unenrollAtAal1.error).toMatchObject({ status: 422, code: 'insufficient_aal' });

    const duplicateName = await supabase.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'first' });
    expect(duplicateName.error).toMatchObject({ status: 422, code: 'mfa_factor_name_conflict' });

    const { data: removed, error } = await supabase.auth.mfa.unenroll({ factorId });
    expect(error).toBeNull();
    expect(removed).toEqual({ id: factorId });
    expect((await supabase.auth.getUser()).data.user?.factors).toBeUndefined();
    // The session the factor raised is back at aal1 from its next refresh on.
    const refreshed = await supabase.auth.refreshSession();
    expect(decodeJwt(refreshed.data.session?.access_token as string).aal).toBe('aal1');
  });

  it('keeps a password-only session from changing the email or password once a factor is verified', async () => {
    const { supabase, email } = await member();
    const { data: enrolled } = await supabase.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'app' });
    const factorId = (enrolled as { id: string }).id;
    const secret = (enrolled as { totp: { secret: string } }).totp.secret;
    expect(
      (await supabase.auth.mfa.challengeAndVerify({ factorId, code: codeFor(secret) })).error,
    ).toBeNull();

    // Someone with the password only (aal1): GoTrue's insufficient_aal, nothing changed.
    const thief = clientFor(server);
    expect((await thief.auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
    const refusal = {
      status: 401,
      code: 'insufficient_aal',
      message: 'AAL2 session is required to update email or password when MFA is enabled.',
    };
    expect((await thief.auth.updateUser({ password: 'a password of their own' })).error).toMatchObject(
      refusal,
    );
    expect((await thief.auth.updateUser({ email: uniqueEmail('thief') })).error).toMatchObject(refusal);
    expect((await thief.auth.mfa.unenroll({ factorId })).error).toMatchObject({ code: 'insufficient_aal' });
    // Metadata is not a credential; the rule leaves it alone.
    expect((await thief.auth.updateUser({ data: { full_name: 'Renamed' } })).error).toBeNull();
    const signIn = await clientFor(server).auth.signInWithPassword({ email, password: PASSWORD });
    expect(signIn.error).toBeNull();
    expect(signIn.data.user?.email).toBe(email);

    // After the second factor (aal2) the same session may.
    expect(
      (await thief.auth.mfa.challengeAndVerify({ factorId, code: codeFor(secret, 1) })).error,
    ).toBeNull();
    expect((await thief.auth.updateUser({ password: 'a password of their own' })).error).toBeNull();
  });

  it('answers clear errors for phone factors, unknown types and other users\u2019 factors', async () => {
    const { supabase } = await member();
    const phone = await supabase.auth.mfa.enroll({ factorType: 'phone', phone: '+15555550100' });
    expect(phone.error).toMatchObject({ status: 422, code: 'mfa_phone_enroll_not_enabled' });
    expect(phone.error?.message).toContain('no SMS provider is configured');

    const raw = await fetch(`${server.url}/auth/v1/factors`, {
      method: 'POST',
      headers: {
        apikey: server.anonKey,
        authorization: `Bearer ${(await supabase.auth.getSession()).data.session?.access_token}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ factor_type: 'sms' }),
    });
    expect(raw.status).toBe(400);

    const { supabase: other } = await member();
    const { data: theirs } = await other.auth.mfa.enroll({ factorType: 'totp' });
    const theirId = (theirs as { id: string }).id;
    expect((await supabase.auth.mfa.challenge({ factorId: theirId })).error).toMatchObject({
      status: 404,
      code: 'mfa_factor_not_found',
    });
    expect((await supabase.auth.mfa.unenroll({ factorId: theirId })).error).toMatchObject({ status: 404 });
    const { data: challenge } = await other.auth.mfa.challenge({ factorId: theirId });
    const crossVerify = await supabase.auth.mfa.verify({
      factorId: theirId,
      challengeId: (challenge as { id: string }).id,
      code: '123456',
    });
    expect(crossVerify.error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });
  });

  it('lets the admin API list and delete a user’s factors', async () => {
    const { supabase } = await member();
    const { data: enrolled } = await supabase.auth.mfa.enroll({
      factorType: 'totp',
      friendlyName: 'admin view',
    });
    const userId = (await supabase.auth.getUser()).data.user?.id as string;
    const admin = adminClient(server);
    const { data: listed, error } = await admin.auth.admin.mfa.listFactors({ userId });
    expect(error).toBeNull();
    expect(listed?.factors.map((factor) => factor.id)).toEqual([(enrolled as { id: string }).id]);
    const deleted = await admin.auth.admin.mfa.deleteFactor({ userId, id: (enrolled as { id: string }).id });
    expect(deleted.error).toBeNull();
    expect((await admin.auth.admin.mfa.listFactors({ userId })).data?.factors).toEqual([]);
    const asUser = await clientFor(server).auth.admin.mfa.listFactors({ userId });
    expect(asUser.error).toMatchObject({ status: 403, code: 'not_admin' });
  });
});
