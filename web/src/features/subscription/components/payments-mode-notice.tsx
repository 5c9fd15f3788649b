import { CreditCard, Info } from 'lucide-react';
import { getConfig } from '#web/lib/config.ts';
import { DEMO_MODE_LABEL } from '../access.ts';

/**
 * The admin dashboard's line about payments (decision 131): operators see whether subscriptions are
 * paid by card (Stripe) or activated for free (demo mode), and how to change it.
 */
export function PaymentsModeNotice() {
  if (getConfig().payments === 'stripe') {
    return (
      <p className="mb-5 flex items-start gap-2 rounded-md border p-3 text-sm" data-testid="payments-mode">
        <CreditCard aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        <span>
          <strong>Payments: Stripe.</strong> Scammer Network subscriptions are paid by card through Stripe
          Checkout.
        </span>
      </p>
    );
  }
  return (
    <p
      className="mb-5 flex items-start gap-2 rounded-md border border-dashed p-3 text-sm"
      data-testid="payments-mode"
    >
      <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <span>
        <strong>Payments: {DEMO_MODE_LABEL}.</strong> "Subscribe" activates the Scammer Network for a month at
        no charge. Set STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and STRIPE_PRICE_ID to take card payments.
      </span>
    </p>
  );
}
