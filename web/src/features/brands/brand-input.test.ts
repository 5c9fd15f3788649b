import { describe, expect, it } from 'vitest';
import { checkedAtOf, linesOf, noonOf, orNull, slugOf, statesOf } from './brand-input.ts';

describe('the brand forms’ fields as columns', () => {
  it('trims optional text and leaves an empty field null', () => {
    expect(orNull('  Portland ')).toBe('Portland');
    expect(orNull('   ')).toBeNull();
    expect(orNull('')).toBeNull();
  });

  it('reads one link per line and state codes separated by commas', () => {
    expect(linesOf(' https://a.example \n\n https://b.example\n')).toEqual([
      'https://a.example',
      'https://b.example',
    ]);
    expect(statesOf('ca, or,, wa ')).toEqual(['CA', 'OR', 'WA']);
    expect(statesOf('')).toEqual([]);
  });

  it('makes an address from a name', () => {
    expect(slugOf('  Green Thumb & Co. ')).toBe('green-thumb-co');
    expect(slugOf('Café')).toBe('cafe');
    expect(slugOf('x'.repeat(100))).toHaveLength(80);
  });

  it('dates a check: none while unverified, the date given, or today at noon UTC', () => {
    expect(noonOf('2026-11-02')).toBe('2026-11-02T12:00:00Z');
    expect(checkedAtOf('unverified', '2026-11-02T12:00:00Z', '2026-12-01')).toBeNull();
    expect(checkedAtOf('verified', '2026-11-02T08:15:00+00:00', '2026-12-01')).toBe(
      '2026-11-02T08:15:00+00:00',
    );
    expect(checkedAtOf('verified', '', '2026-12-01')).toBe('2026-12-01T12:00:00Z');
    expect(checkedAtOf('expired', '', '2026-12-01')).toBe('2026-12-01T12:00:00Z');
  });
});
