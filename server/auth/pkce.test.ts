import { describe, expect, it } from 'vitest';
import { emailTokenHash, numericOtp, s256Challenge, safeEqual } from './crypto.ts';
import { parseCodeChallenge } from './pkce.ts';

describe('PKCE', () => {
  it('computes the RFC 7636 S256 challenge (appendix B example)', () => {
    expect(s256Challenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('accepts what auth-js sends and refuses the rest', () => {
    const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
    expect(parseCodeChallenge('', '')).toBeUndefined();
    expect(parseCodeChallenge(challenge, 's256')).toEqual({ challenge, method: 's256' });
    expect(parseCodeChallenge(challenge, 'S256')).toEqual({ challenge, method: 's256' });
    for (const [c, m] of [
      [challenge, ''],
      ['', 's256'],
      [challenge, 'sha1'],
      ['short', 's256'],
      [`${challenge}!`, 'plain'],
      ['x'.repeat(129), 'plain'],
    ] as const) {
      expect(() => parseCodeChallenge(c, m)).toThrow(expect.objectContaining({ code: 'validation_failed' }));
    }
  });
});

describe('one-time codes', () => {
  it('are digits of the configured length', () => {
    for (let i = 0; i < 50; i += 1) expect(numericOtp(6)).toMatch(/^\d{6}$/);
    expect(numericOtp(8)).toMatch(/^\d{8}$/);
  });

  it("hash as GoTrue's token hash: hex SHA-224 of address and code", () => {
    expect(emailTokenHash('a@b.co', '123456')).toMatch(/^[0-9a-f]{56}$/);
    expect(emailTokenHash('a@b.co', '123456')).not.toBe(emailTokenHash('a@b.co', '123457'));
  });

  it('compare in constant time and exactly', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
  });
});
