import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invokeFunction } from '#web/lib/invoke-function.ts';

/**
 * Cancelling (decision 132): at the end of the paid period. The server tells Stripe
 * (cancel_at_period_end) or marks a demo or admin grant cancelled; access continues until the expiry.
 */
export async function cancelSubscription(): Promise<void> {
  await invokeFunction('subscription-cancel', {});
}

/** Cancels the subscription, then refreshes what the page knows of the member's access. */
export function useCancelSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelSubscription,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['subscription'] }),
  });
}
