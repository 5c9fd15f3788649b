import { useState } from 'react';
import { toast } from '#web/components/ui/use-toast.ts';
import { getConfig } from '#web/lib/config.ts';
import { activationDescription, formatDate } from '../access.ts';
import { goToCheckout, useActivateSubscription } from '../api/activate-subscription.ts';
import { useCancelSubscription } from '../api/cancel-subscription.ts';
import { openBillingPortal } from '../api/open-billing-portal.ts';

function errorMessage(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}

/**
 * The Subscription tab's actions (decision 131, 132) and what each says: subscribe (Checkout, or the demo
 * mode's direct activation), cancel at the period's end, open Stripe's billing portal; `busy` while any runs.
 */
export function useSubscriptionActions() {
  const activation = useActivateSubscription();
  const cancellation = useCancelSubscription();
  const [portalBusy, setPortalBusy] = useState(false);
  const mode = getConfig().payments;
  const busy = activation.isPending || cancellation.isPending || portalBusy;

  const subscribe = () =>
    activation.mutateAsync().then(
      (result) => {
        if (result.mode === 'stripe') return goToCheckout(result.checkoutUrl);
        toast({ title: 'Subscription activated', description: activationDescription(result.subscription) });
      },
      (error: unknown) =>
        toast({
          variant: 'destructive',
          title: 'Error',
          description:
            mode === 'stripe'
              ? errorMessage(error, 'Payment processor coming soon.')
              : 'Payment processor coming soon.',
        }),
    );

  const cancel = (until: number) =>
    cancellation.mutateAsync().then(
      () =>
        toast({
          title: 'Subscription cancelled',
          description: `You keep access to the Scammer Network until ${formatDate(until)}.`,
        }),
      () =>
        toast({
          variant: 'destructive',
          title: 'Error',
          description: 'Failed to cancel subscription. Please try again.',
        }),
    );

  const manageBilling = async () => {
    setPortalBusy(true);
    try {
      await openBillingPortal();
    } catch (error) {
      toast({
        variant: 'destructive',
        title: 'Error',
        description: errorMessage(error, 'Billing is unavailable.'),
      });
      setPortalBusy(false);
    }
  };

  return { busy, subscribe, cancel, manageBilling };
}
