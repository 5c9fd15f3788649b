import { describe, expect, it } from 'vitest';
import { characterOffset, type Mask, maskedText, pieces, readSpan, spanText } from './masks.ts';

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

describe('readSpan', () => {
  it('turns the first and last characters (from 1, both masked) into the stored span (from 0, end excluded)', () => {
    expect(readSpan('1', '5')).toEqual({ start_at: 0, end_at: 5 });
    expect(readSpan('7', '7')).toEqual({ start_at: 6, end_at: 7 });
  });

  it('asks for a first character from 1', () => {
    const problem = 'Select the characters to mask, or give the first one as a number from 1.';
    expect(readSpan('', '5')).toEqual({ problems: { startAt: problem } });
    expect(readSpan('0', '5')).toEqual({ problems: { startAt: problem } });
    expect(readSpan('2.5', '5')).toEqual({ problems: { startAt: problem } });
    expect(readSpan('x', '5')).toEqual({ problems: { startAt: problem } });
  });

  it('asks for a last character no smaller than the first', () => {
    const problem = 'Give the last character to mask: a number no smaller than the first.';
    expect(readSpan('4', '')).toEqual({ problems: { endAt: problem } });
    expect(readSpan('4', '3')).toEqual({ problems: { endAt: problem } });
    expect(readSpan('4', '4.5')).toEqual({ problems: { endAt: problem } });
  });
});
