import { describe, expect, it } from 'vitest';
import { characterOffset, type Mask, maskedText, pieces, spanText } from './masks.ts';

const mask = (start_at: number, end_at: number, state: Mask['state'] = 'masked'): Mask => ({
  id: `${start_at}`,
  field: 'incident_details',
  start_at,
  end_at,
  kind: 'manual',
  state,
});

describe('masked spans in the browser (decision 197)', () => {
  const text = 'Call 🌿 555-0100 now';
  it('count characters as the database does: an emoji is one', () => {
    expect(characterOffset(text, text.indexOf('555'))).toBe(7);
    expect(spanText(text, mask(7, 15))).toBe('555-0100');
  });
  it('replace kept and proposed spans as readers get them, never unmasked ones', () => {
    expect(maskedText(text, [mask(7, 15), mask(0, 4, 'unmasked')], 'incident_details')).toBe(
      'Call 🌿 [removed by the reviewers] now',
    );
    expect(maskedText(text, [mask(7, 15, 'proposed'), mask(16, 19)], 'incident_details')).toBe(
      'Call 🌿 [removed by the reviewers] [removed by the reviewers]',
    );
    expect(maskedText(text, [mask(7, 15)], 'location')).toBe(text);
  });
  it('cut the text into plain and masked pieces for the reviewer', () => {
    expect(
      pieces(text, [mask(7, 15)], 'incident_details').map((piece) => [piece.text, piece.mask?.id ?? null]),
    ).toEqual([
      ['Call 🌿 ', null],
      ['555-0100', '7'],
      [' now', null],
    ]);
  });
});
