import { describe, expect, it } from 'vitest';
import { publishProblem, rejectionProblem } from './review.ts';

describe('publishProblem', () => {
  it('asks for the reviewers summary first', () => {
    expect(publishProblem('  ', [{ state: 'proposed' }])).toEqual({
      summary: "Write the reviewers' summary before publishing: readers see it above the report.",
    });
  });

  it('then for a decision on every proposed mask', () => {
    expect(publishProblem('A member reports…', [{ state: 'masked' }, { state: 'proposed' }])).toEqual({
      masks:
        'Keep or unmask each proposed mask before publishing: nobody has checked that personal data yet.',
    });
  });

  it('lets a report with a summary and decided masks be published', () => {
    expect(publishProblem('A member reports…', [])).toBeNull();
    expect(publishProblem('A member reports…', [{ state: 'masked' }, { state: 'unmasked' }])).toBeNull();
  });
});

describe('rejectionProblem', () => {
  it('asks for a reason of 5 characters at least, spaces around it not counted', () => {
    expect(rejectionProblem('')).toBe('Give the reporter a reason of at least 5 characters.');
    expect(rejectionProblem('  abcd  ')).toBe('Give the reporter a reason of at least 5 characters.');
    expect(rejectionProblem('abcde')).toBeNull();
  });
});
