import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { toast } from '#web/components/ui/use-toast.ts';
import { openReportDialog } from '#web/features/scammer-reports/report-dialog-store.ts';
import { accessStatus, activationDescription } from '#web/features/subscription/access.ts';
import {
  goToCheckout,
  useActivateSubscription,
} from '#web/features/subscription/api/activate-subscription.ts';
import { accessFactsQueryOptions } from '#web/features/subscription/api/get-access-facts.ts';
import { useScammerAccess } from '#web/features/subscription/hooks/use-scammer-access.ts';
import { useAuth } from '#web/lib/auth/hooks/use-auth.ts';
import { openSignInDialog } from '#web/lib/auth/sign-in-dialog.ts';
import { getConfig } from '#web/lib/config.ts';

interface ScammerNetworkActions {
  /** Subscription, active trial or admin. */
  hasAccess: boolean;
  openScammerNetwork: () => void;
  submitTip: () => void;
}

/** Product §network-button: after an automatic activation, the member is taken to the network after 1 s. */
export const REDIRECT_AFTER_ACTIVATION_MS = 1000;

/**
 * The Scammer Network button and the Submit a Tip button (product §network-button).
 * Scammer Network: a visitor is asked to sign in; a member with access (subscription, active trial,
 * admin) goes to /scammer-database; a member without: in demo mode gets a monthly subscription activated
 * (the toast says what, until when, and that nothing was charged) and is taken there after 1 s; with
 * Stripe goes to Checkout; on failure to the Subscription tab of the profile.
 */
export function useScammerNetworkActions(signedIn: boolean): ScammerNetworkActions {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const access = useScammerAccess();
  const { mutateAsync: activate } = useActivateSubscription();
  const busy = useRef(false);
  const redirect = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (redirect.current) clearTimeout(redirect.current);
    },
    [],
  );

  const { user, isAdmin } = useAuth();
  const userId = user?.id ?? null;
  const { hasAccess } = access;
  const openScammerNetwork = useCallback(() => {
    if (!signedIn || !userId) {
      toast({
        variant: 'destructive',
        title: 'Authentication Required',
        description: 'Please sign in to access the Scammer Network.',
      });
      return;
    }
    if (hasAccess) {
      navigate('/scammer-database');
      return;
    }
    if (busy.current) return;
    busy.current = true;
    void (async () => {
      try {
        // The status the button shows may not be loaded yet: decide on the facts, never on "unknown".
        const facts = await queryClient.ensureQueryData(accessFactsQueryOptions(userId)).catch(() => null);
        if (facts && accessStatus(facts, isAdmin, Date.now()).hasAccess) {
          navigate('/scammer-database');
          return;
        }
        let activation: Awaited<ReturnType<typeof activate>>;
        try {
          // Demo mode: resolves once the page's view of the member's access has been refreshed.
          activation = await activate();
        } catch (error) {
          const stripe = getConfig().payments === 'stripe';
          toast({
            variant: 'destructive',
            title: 'Error',
            description:
              stripe && error instanceof Error && error.message
                ? error.message
                : 'Payment processor coming soon.',
          });
          navigate('/profile?tab=subscription');
          return;
        }
        if (activation.mode === 'stripe') {
          // With a payment account: Stripe's hosted Checkout; access starts when Stripe confirms.
          goToCheckout(activation.checkoutUrl);
          return;
        }
        // Demo mode (the spec's automatic activation), said as it is: what, until when, and no charge.
        toast({
          title: 'Subscription activated',
          description: activationDescription(activation.subscription),
        });
        redirect.current = setTimeout(() => navigate('/scammer-database'), REDIRECT_AFTER_ACTIVATION_MS);
      } finally {
        busy.current = false;
      }
    })();
  }, [signedIn, userId, isAdmin, hasAccess, navigate, queryClient, activate]);

  // Members get the scammer report dialog (product §report-dialog); visitors the sign-in prompt
  // (§network-button) in the sign-in dialog, as the news heart opens it: a way on, not a dead end
  // (issue 34).
  const submitTip = useCallback(() => {
    if (!signedIn) {
      openSignInDialog('Please sign in to submit a scammer report.');
      return;
    }
    openReportDialog();
  }, [signedIn]);

  return { hasAccess, openScammerNetwork, submitTip };
}
