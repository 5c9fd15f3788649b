import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getConfig } from '#web/lib/config.ts';
import { invokeFunction } from '#web/lib/invoke-function.ts';
import type { Subscription } from '../access.ts';
import { parseSubscription, type SubscriptionRow } from './get-access-facts.ts';

/** What subscribing did: activated directly (demo mode), or the member is on their way to Checkout. */
export type Activation =
  | { mode: 'demo'; subscription: Subscription }
  | { mode: 'stripe'; checkoutUrl: string };

/**
 * Subscribing (decision 131). Demo mode (no payment account): the server activates one month directly,
 * no payment taken. Stripe: the server opens a Checkout session and the browser goes there; access starts
 * when Stripe's signed webhook reaches the server. The browser never writes the subscription itself.
 */
export async function activateSubscription(): Promise<Activation> {
  if (getConfig().payments === 'stripe') {
    const { url } = await invokeFunction<{ url: string }>('stripe-checkout', {});
    return { mode: 'stripe', checkoutUrl: url };
  }
  const { subscription } = await invokeFunction<{ subscription: SubscriptionRow }>(
    'subscription-activate',
    {},
  );
  return { mode: 'demo', subscription: parseSubscription(subscription) as Subscription };
}

/** Sends the browser to Stripe's hosted Checkout (card details never touch HighGrade's pages). */
export function goToCheckout(url: string): void {
  window.location.assign(url);
}

/** Subscribes the member, then refreshes what the page knows of their access (everywhere at once). */
export function useActivateSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: activateSubscription,
    onSuccess: (activation) =>
      activation.mode === 'demo' ? queryClient.invalidateQueries({ queryKey: ['subscription'] }) : undefined,
  });
}
