// @databases: both — issue 37 asks its compatibility items of both databases (keys, tokens and objects live in the database).
/**
 * POST /otp for an address without an account when none may be made (`shouldCreateUser: false`): by
 * default an empty success, as for any address, so the endpoint reveals no accounts (decision 016);
 * with OTP_REVEALS_UNKNOWN_EMAIL=true, GoTrue's own 422 otp_disabled (decision 135, issue 24).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor } from '#tests/support/clients.ts';
import { type ServerProcess, startServerProcess } from '#tests/support/server-process.ts';
import { createUser, uniqueEmail } from '#tests/support/users.ts';

describe.each([
  ['by default', {}, false],
  ['with OTP_REVEALS_UNKNOWN_EMAIL=true', { OTP_REVEALS_UNKNOWN_EMAIL: 'true' }, true],
] as const)('signInWithOtp without creating a user, %s', (_name, env, reveals) => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess(env);
  });
  afterAll(async () => {
    await server?.close();
  });

  it(
    reveals
      ? 'answers GoTrue’s otp_disabled for an unknown address'
      : 'answers an unknown address like a known one',
    async () => {
      const unknown = await clientFor(server).auth.signInWithOtp({
        email: uniqueEmail('nobody'),
        options: { shouldCreateUser: false },
      });
      if (reveals) {
        expect(unknown.error).toMatchObject({
          status: 422,
          code: 'otp_disabled',
          message: 'Signups not allowed for otp',
        });
      } else {
        expect(unknown.error).toBeNull();
      }
      const { email } = await createUser(server);
      const known = await clientFor(server).auth.signInWithOtp({
        email,
        options: { shouldCreateUser: false },
      });
      expect(known.error).toBeNull();
    },
  );
});
