import { describe, expect, it } from 'vitest';
import { REPLY_BODY_MAX, REPLY_BODY_MIN, replyProblem } from './reply-rules.ts';

describe('replyProblem', () => {
  const problem = 'Your message must be between 20 and 2000 characters.';

  it('accepts a message from the shortest to the longest length', () => {
    expect(replyProblem('x'.repeat(REPLY_BODY_MIN))).toBeNull();
    expect(replyProblem('x'.repeat(REPLY_BODY_MAX))).toBeNull();
  });

  it('refuses a message too short or too long, saying the range', () => {
    expect(replyProblem('too short')).toBe(problem);
    expect(replyProblem('')).toBe(problem);
    expect(replyProblem('x'.repeat(REPLY_BODY_MAX + 1))).toBe(problem);
  });

  it('does not count the spaces around the message', () => {
    expect(replyProblem(`   ${'x'.repeat(REPLY_BODY_MIN - 1)}   `)).toBe(problem);
    expect(replyProblem(`\n${'x'.repeat(REPLY_BODY_MAX)}\n`)).toBeNull();
  });
});
