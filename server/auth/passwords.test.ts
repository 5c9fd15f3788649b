import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import {
  assertStrongPassword,
  checkPasswordInput,
  hashPassword,
  MAX_PASSWORD_LENGTH,
  passwordWeakness,
  verifyPassword,
} from './passwords.ts';

const auth = loadConfig({}).auth;

describe('password policy', () => {
  it('requires the minimum length (spec: 6) with GoTrue’s reason and message', () => {
    expect(passwordWeakness('12345', auth)).toEqual({
      reasons: ['length'],
      message: 'Password should be at least 6 characters.',
    });
    expect(passwordWeakness('123456', auth)).toBeUndefined();
    expect(passwordWeakness('😀😀😀😀😀😀', auth)).toBeUndefined();
  });

  it('checks required character sets when configured', () => {
    const strict = loadConfig({ PASSWORD_REQUIRED_CHARACTERS: 'abcdefghijklmnopqrstuvwxyz:0123456789' }).auth;
    expect(passwordWeakness('onlyletters', strict)).toEqual({
      reasons: ['characters'],
      message:
        'Password should contain at least one character of each: abcdefghijklmnopqrstuvwxyz, 0123456789.',
    });
    expect(passwordWeakness('abc', strict)?.reasons).toEqual(['length', 'characters']);
    expect(passwordWeakness('letters4u', strict)).toBeUndefined();
  });

  it('rejects, never truncates, passwords over the maximum', () => {
    expect(() => checkPasswordInput('x'.repeat(MAX_PASSWORD_LENGTH))).not.toThrow();
    expect(() => checkPasswordInput('x'.repeat(MAX_PASSWORD_LENGTH + 1))).toThrow(
      expect.objectContaining({
        code: 'validation_failed',
        message: 'Password cannot be longer than 256 characters',
      }),
    );
    expect(() => assertStrongPassword('abc', auth)).toThrow(
      expect.objectContaining({ code: 'weak_password', status: 422 }),
    );
    expect(() => checkPasswordInput('pass\u0000word')).toThrow(
      expect.objectContaining({ code: 'validation_failed' }),
    );
  });
});

describe('argon2id hashing', () => {
  it('hashes with OWASP parameters and verifies exactly the same password', async () => {
    const long = `${'p'.repeat(200)}tail`;
    const stored = await hashPassword(long);
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(stored, long)).toBe(true);
    // Bytes after the 72nd matter (no bcrypt-style truncation).
    expect(await verifyPassword(stored, `${'p'.repeat(200)}tai!`)).toBe(false);
  });

  it('never throws on odd stored values', async () => {
    expect(await verifyPassword(null, 'x')).toBe(false);
    expect(await verifyPassword('', 'x')).toBe(false);
    expect(await verifyPassword('$2a$10$bcrypt-not-supported', 'x')).toBe(false);
    expect(await verifyPassword('$argon2id$garbage', 'x')).toBe(false);
  });
});
