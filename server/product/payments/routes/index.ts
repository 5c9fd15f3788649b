import type { Route } from '../../../http/routes.ts';
import type { PaymentsDeps } from '../payments.ts';
import stripeCheckout from './stripe-checkout.ts';
import stripePortal from './stripe-portal.ts';
import stripeWebhook from './stripe-webhook.ts';
import subscriptionActivate from './subscription-activate.ts';
import subscriptionCancel from './subscription-cancel.ts';

/** The payments functions under /functions/v1, one file each, named as clients call them (decision 088). */
export const ROUTES: Route<{ payments: PaymentsDeps }>[] = [
  stripeCheckout,
  stripePortal,
  stripeWebhook,
  subscriptionActivate,
  subscriptionCancel,
];
