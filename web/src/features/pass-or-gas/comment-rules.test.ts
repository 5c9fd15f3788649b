import { describe, expect, it } from 'vitest';
import { COMMENT_MAX_LENGTH, commentProblem } from './comment-rules.ts';

describe('commentProblem', () => {
  it('accepts plain text, markup that is not script included (it is shown as text)', () => {
    expect(commentProblem('Tastes like pine')).toBeNull();
    expect(commentProblem('Tastes like <b>pine</b> & citrus')).toBeNull();
  });

  it('requires some text besides spaces', () => {
    expect(commentProblem('')).toBe('Comment is required.');
    expect(commentProblem('   \n ')).toBe('Comment is required.');
  });

  it('counts the length without the surrounding spaces', () => {
    expect(commentProblem(` ${'a'.repeat(COMMENT_MAX_LENGTH)} `)).toBeNull();
    expect(commentProblem('a'.repeat(COMMENT_MAX_LENGTH + 1))).toBe(
      'Comment must be between 1 and 2000 characters.',
    );
  });

  it('refuses script markup, handlers and script links', () => {
    for (const text of [
      '<script>alert(1)</script>',
      '< / script>',
      'see javascript:alert(1)',
      '<img onerror=x>',
    ]) {
      expect(commentProblem(text)).toBe('Comment must not contain script markup.');
    }
  });
});
