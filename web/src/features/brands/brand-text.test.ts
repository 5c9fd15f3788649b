import { describe, expect, it } from 'vitest';
import { ERROR_TEXTS } from '#web/lib/error-text.ts';
import { brandErrorText } from './api/brand-call.ts';
import { gasShareText } from './components/brand-badges.tsx';

describe('brandErrorText', () => {
  it('names the rule a refused write broke', () => {
    expect(
      brandErrorText({
        code: '23505',
        message: 'duplicate key value violates unique constraint "brands_slug_key"',
      }),
    ).toBe('Another brand already uses this address (slug). Choose another.');
    expect(
      brandErrorText({
        code: '23514',
        message: 'new row for relation "brands" violates check constraint "brands_logo_url_format"',
      }),
    ).toBe('The logo must be an https:// address of an image.');
  });

  it("passes the area's own messages through and hides the rest", () => {
    expect(
      brandErrorText({ code: '42501', message: "Only this brand's approved representatives can edit it." }),
    ).toBe("Only this brand's approved representatives can edit it.");
    expect(brandErrorText({ code: '42501', message: 'new row violates row-level security policy' })).toBe(
      ERROR_TEXTS.permission,
    );
    expect(brandErrorText({ code: 'XX000', message: 'internal' })).toBe(ERROR_TEXTS.generic);
  });
});

describe('gasShareText', () => {
  it('says what the share is made of', () => {
    expect(gasShareText(0, 0, 0)).toBe('No products listed yet');
    expect(gasShareText(0, 0, 2)).toBe('No counted votes yet across 2 products');
    expect(gasShareText(8, 4, 3)).toBe('67% Gas across 3 products (12 votes)');
  });

  it('gives the 95% range under 10 counted votes, as a product card does (decision 208)', () => {
    expect(gasShareText(3, 0, 1)).toBe('44%–100% Gas across 1 product (only 3 counted votes)');
    expect(gasShareText(1, 0, 2)).toBe('21%–100% Gas across 2 products (only 1 counted vote)');
  });
});
