import { CheckedOn, checkedDate, VerificationBadge } from '../components/brand-badges.tsx';
import type { Verification } from '../types.ts';

/**
 * A brand's or licence's verification on an admin screen as visitors see it (decision 212): a check older
 * than 12 months reads "Due for re-check · last checked …" (decision 207), a verified one its date.
 */
export function ShownVerification({
  verification,
  shown,
  checkedAt,
}: {
  verification: Verification;
  shown: Verification | undefined;
  checkedAt: string | null;
}) {
  const state = shown ?? verification;
  return (
    <>
      <VerificationBadge verification={state} checkedAt={checkedAt} />
      <CheckedOn verification={state} checkedAt={checkedAt} />
    </>
  );
}

/**
 * Beside the status an admin edits: a stored "verified" that visitors no longer see as verified, and how
 * to verify it again (a new check date).
 */
export function RecheckNote({
  shown,
  checkedAt,
}: {
  shown: Verification | undefined;
  checkedAt: string | null;
}) {
  if (shown === 'recheck_due')
    return (
      <p className="text-amber-800 text-sm sm:col-span-2 dark:text-amber-300" data-testid="recheck-note">
        Due for re-check: last checked {checkedAt ? checkedDate(checkedAt) : 'at an unknown date'}, more than
        12 months ago, so visitors no longer see this licence as verified. Check it again and enter the date
        of the new check.
      </p>
    );
  if (shown === 'expired')
    return (
      <p className="text-amber-800 text-sm sm:col-span-2 dark:text-amber-300" data-testid="recheck-note">
        Verification expired: the licence's expiry date has passed, so visitors see it as expired.
      </p>
    );
  return null;
}
