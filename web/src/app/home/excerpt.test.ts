import { describe, expect, it } from 'vitest';
import { excerpt } from './excerpt.ts';

describe('excerpt', () => {
  it('keeps the words of Markdown and drops its marks', () => {
    expect(excerpt('We **launched** the directory.')).toBe('We launched the directory.');
    expect(excerpt('# Title\n\n> A _quote_ with `code`')).toBe('Title A quote with code');
  });

  it("keeps a link's text and drops images", () => {
    expect(excerpt('See [the news](https://example.com) ![a chart](chart.png) today')).toBe(
      'See the news today',
    );
  });

  it('folds lines and runs of spaces into single spaces', () => {
    expect(excerpt('  one\n\ntwo   three  ')).toBe('one two three');
  });
});
