import { Lock, LogIn, ShieldAlert, UserPlus } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { SUBSCRIPTION_PRICE } from '#web/features/subscription/access.ts';
import { useScammerAccess } from '#web/features/subscription/hooks/use-scammer-access.ts';
import { useAuth } from '#web/lib/auth/hooks/use-auth.ts';

/**
 * Product §scammer-database access: a visitor is asked to sign in; a signed-in member without access
 * (no subscription, trial over) is told what access costs and where to subscribe — never to "Sign In";
 * members with access (subscription, trial, admin) see the children. The database enforces the same
 * rule (published_scammer_reports, search_scammer_reports).
 */
export function ScammerAccessGate({ onSignIn, children }: { onSignIn: () => void; children: ReactNode }) {
  const auth = useAuth();
  const access = useScammerAccess();
  if (!auth.confirmed && auth.user === null) {
    return <Skeleton className="mt-10 h-48" />;
  }
  if (auth.user === null) {
    return (
      <EmptyState
        icon={LogIn}
        title="Sign in to search the Scammer Network"
        className="mt-10"
        actions={
          <>
            <Button onClick={onSignIn}>Sign In</Button>
            <Button asChild variant="outline">
              <Link to="/auth?tab=signup">
                <UserPlus aria-hidden="true" />
                Create a free account
              </Link>
            </Button>
          </>
        }
      >
        Reviewed reports are for members with a subscription ({SUBSCRIPTION_PRICE}, cancel any time), an
        active trial or an admin account. New here? A free account starts with a free trial of the Scammer
        Network; subscribe from your profile when it ends.
      </EmptyState>
    );
  }
  if (!access.hasAccess && access.isPending) {
    return <Skeleton className="mt-10 h-48" aria-label="Checking your access" />;
  }
  if (!access.hasAccess) {
    return (
      <EmptyState
        icon={Lock}
        title="Your access to the Scammer Network has ended"
        className="mt-10"
        actions={
          <Button asChild>
            <Link to="/profile?tab=subscription">
              <ShieldAlert aria-hidden="true" />
              Subscribe for {SUBSCRIPTION_PRICE}
            </Link>
          </Button>
        }
      >
        Searching reviewed reports, their contact details and evidence needs a subscription:{' '}
        {SUBSCRIPTION_PRICE}, cancel any time. Your free trial is over; subscribe from your profile to
        continue.
      </EmptyState>
    );
  }
  return <>{children}</>;
}
