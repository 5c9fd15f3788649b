import type { FastifyInstance } from 'fastify';
import type { AuthDeps } from '../auth.ts';
import { bodyOf, requestMeta, sessionCallerOf } from '../http.ts';
import { enroll } from '../mfa.ts';

/** POST /factors — enrols a TOTP factor (secret, otpauth:// URI, SVG QR code). */
export default function enrollFactor(app: FastifyInstance, deps: AuthDeps): void {
  app.post('/factors', { config: { access: 'user' } }, async (request) => {
    const body = bodyOf(request);
    const caller = await sessionCallerOf(deps, request);
    return enroll(
      deps,
      caller,
      {
        factorType: body.string('factor_type', 32),
        friendlyName: body.string('friendly_name', 120).trim(),
        issuer: body.string('issuer', 120),
        phone: body.string('phone', 64),
      },
      requestMeta(request),
    );
  });
}
