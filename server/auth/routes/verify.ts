import type { FastifyInstance } from 'fastify';
import { VERIFY_TYPES, type VerifyType, verify as verifyToken } from '../accounts.ts';
import type { AuthDeps } from '../auth.ts';
import { authErrors } from '../errors.ts';
import { bodyOf, requestMeta, sendJson } from '../http.ts';
import { normalizeEmail } from '../input.ts';

/** POST /verify — a typed code (with the address) or a token hash; answers with the session. */
export default function verify(app: FastifyInstance, deps: AuthDeps): void {
  app.post('/verify', { config: { access: 'public' } }, async (request, reply) => {
    const body = bodyOf(request);
    const type = body.string('type', 32);
    const token = body.string('token', 256);
    const tokenHash = body.string('token_hash', 256);
    const email = body.string('email', 320);
    const phone = body.string('phone', 64);
    if (type === '') throw authErrors.validation('Verify requires a verification type');
    if ((token === '') === (tokenHash === ''))
      throw authErrors.validation('Verify requires either a token or a token hash');
    if (phone !== '' && email !== '') {
      throw authErrors.validation('Only an email address or phone number should be provided on verify');
    }
    // A phone OTP: GoTrue checks the number's format first (phone.go validatePhone), then finds no
    // token (this server sends no SMS).
    if (
      token !== '' &&
      phone !== '' &&
      email === '' &&
      !/^[1-9][0-9]{1,14}$/.test(phone.replace(/^\+/, '').replaceAll(' ', ''))
    ) {
      throw authErrors.validation('Invalid phone number format (E.164 required)');
    }
    if (type === 'sms' || type === 'phone_change' || (phone !== '' && token !== ''))
      throw authErrors.otpExpired();
    if (!(VERIFY_TYPES as readonly string[]).includes(type))
      throw authErrors.validation('Unsupported verification type');
    let outcome: Awaited<ReturnType<typeof verifyToken>>;
    if (token !== '') {
      if (email === '')
        throw authErrors.validation('Only an email address or phone number should be provided on verify');
      let address: string;
      try {
        address = normalizeEmail(email);
      } catch {
        throw authErrors.validation422('Invalid email format');
      }
      outcome = await verifyToken(
        deps,
        { type: type as VerifyType, token, email: address, pkce: false },
        requestMeta(request),
      );
    } else {
      if (email !== '' || body.string('redirect_to', 2048) !== '') {
        throw authErrors.validation('Only the token_hash and type should be provided');
      }
      const hashed = tokenHash.startsWith('pkce_') ? tokenHash.slice('pkce_'.length) : tokenHash;
      if (!/^[0-9a-f]{56}$/.test(hashed)) throw authErrors.linkExpired();
      outcome = await verifyToken(
        deps,
        { type: type as VerifyType, token: hashed, email: undefined, pkce: false },
        requestMeta(request),
      );
    }
    if (outcome.kind === 'message') return sendJson(reply, 200, { msg: outcome.message, code: '200' });
    if (outcome.kind === 'session') return outcome.body;
    throw authErrors.unexpected();
  });
}
