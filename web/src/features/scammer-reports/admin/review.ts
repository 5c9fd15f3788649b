import type { Mask } from './masks.ts';

/**
 * What stops a report being published (decisions 195, 197): the reviewers' summary readers see above it,
 * and a decision on every mask the database proposed; null when nothing does.
 */
export function publishProblem(
  summary: string,
  masks: readonly Pick<Mask, 'state'>[],
): { summary: string } | { masks: string } | null {
  if (!summary.trim()) {
    return { summary: "Write the reviewers' summary before publishing: readers see it above the report." };
  }
  if (masks.some((mask) => mask.state === 'proposed')) {
    return {
      masks:
        'Keep or unmask each proposed mask before publishing: nobody has checked that personal data yet.',
    };
  }
  return null;
}

/** The reporter is told why their report was rejected: a reason of 5 characters at least (the database's too). */
export function rejectionProblem(reason: string): string | null {
  return reason.trim().length < 5 ? 'Give the reporter a reason of at least 5 characters.' : null;
}
