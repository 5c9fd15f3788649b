import { describe, expect, it } from 'vitest';
import { memberSearchQuery } from './member-search.ts';

describe('memberSearchQuery', () => {
  it('asks for every word as the beginning of a word, split where the database splits', () => {
    expect(memberSearchQuery('Morgan')).toBe("'Morgan'");
    expect(memberSearchQuery('  mel.Mem@members  ')).toBe("'mel' & 'Mem' & 'members'");
    expect(memberSearchQuery('qz_grower José-Ünal')).toBe("'qz' & 'grower' & 'José' & 'Ünal'");
  });

  it("leaves no quote, backslash or operator of the query's syntax inside a word", () => {
    expect(memberSearchQuery("o'brien\\ & !x | (y) <-> z:*")).toBe("'o' & 'brien' & 'x' & 'y' & 'z'");
    expect(memberSearchQuery("%_' ")).toBe('');
  });
});
