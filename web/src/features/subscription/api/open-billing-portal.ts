import { invokeFunction } from '#web/lib/invoke-function.ts';

/** "Manage billing": the provider's customer portal (card, invoices, renew). */
export async function openBillingPortal(): Promise<void> {
  const { url } = await invokeFunction<{ url: string }>('stripe-portal', {});
  window.location.assign(url);
}
