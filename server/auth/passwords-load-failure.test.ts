import { describe, expect, it, vi } from 'vitest';
import { renderAuthError, toAuthError } from './errors.ts';
import { burnVerification, hashPassword, verifyPassword } from './passwords.ts';

// What a broken install looks like: the package's native binary is missing, so importing it fails.
// Only the third-party package is replaced; our code runs as it does in production.
vi.mock('@node-rs/argon2', () => {
  throw new Error('Cannot find native binding');
});

/** The error a call failed with; Vitest wraps the package's own error, keeping it as the cause. */
async function failure(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof Error)) throw new Error('expected the call to fail');
  return error.cause instanceof Error ? error.cause.message : error.message;
}

const STORED = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g';

describe('argon2 that cannot be loaded', () => {
  it('is a failure, not a wrong password: verifying, hashing and the decoy verification reject', async () => {
    expect(await failure(verifyPassword(STORED, 'secret'))).toBe('Cannot find native binding');
    expect(await failure(hashPassword('secret'))).toBe('Cannot find native binding');
    expect(await failure(burnVerification('secret'))).toBe('Cannot find native binding');
    // Values that are not argon2 hashes still simply do not match, without loading anything.
    expect(await verifyPassword('$2a$10$bcrypt-not-supported', 'secret')).toBe(false);
  });

  it('reaches the client as GoTrue’s unexpected_failure, without the internal cause', async () => {
    const error = await verifyPassword(STORED, 'secret').catch((caught: unknown) => caught);
    const apiError = toAuthError(error);
    expect(apiError.status).toBe(500);
    expect(renderAuthError(apiError, '2024-01-01')).toEqual({
      code: 'unexpected_failure',
      message: 'Unexpected failure, please check server logs for more information',
    });
  });
});
