import { describe, expect, it } from 'vitest';
import { normalizeTransform, transformFromClaim, transformToClaim } from './transform.ts';

describe('transformations', () => {
  it('clamp sizes to upstream limits, zero meaning unset', () => {
    expect(normalizeTransform({ width: 99999, height: 0 })).toEqual({ width: 2000 });
    expect(
      normalizeTransform({ width: 400, height: 300, resize: 'contain', quality: 50, format: 'avif' }),
    ).toEqual({
      width: 400,
      height: 300,
      resize: 'contain',
      quality: 50,
      format: 'avif',
    });
    expect(normalizeTransform({ resize: 'stretch', format: 'gif' })).toEqual({});
  });

  it("write and read upstream's signed claim", () => {
    const claim = transformToClaim({ width: 300, height: 200, quality: 70, format: 'webp' });
    expect(claim).toBe('height:200,width:300,resize:cover,quality:70,format:webp');
    expect(transformFromClaim(claim)).toEqual({
      width: 300,
      height: 200,
      resize: 'cover',
      quality: 70,
      format: 'webp',
    });
    expect(transformToClaim({})).toBe('');
    expect(transformToClaim({ format: 'origin' })).toBe('');
    expect(transformFromClaim('')).toEqual({});
    expect(transformFromClaim('width:5000,quality:5,gravity:sm')).toEqual({ width: 2000 });
    expect(() => transformFromClaim('width:abc')).toThrow('The url do not match the signature');
  });
});
