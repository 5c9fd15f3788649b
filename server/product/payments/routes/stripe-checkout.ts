import type { FastifyInstance } from 'fastify';
import { callerOf, noStore, refuseOtherMethods } from '../../../functions/http.ts';
import type { PaymentsDeps } from '../payments.ts';
import { startCheckout } from '../payments.ts';

const URL = '/stripe-checkout';

/**
 * POST /functions/v1/stripe-checkout — a Stripe Checkout session for the monthly price; answers
 * {url} for the browser to go to. Access starts with the webhook, not here.
 */
export default function stripeCheckout(app: FastifyInstance, deps: { payments: PaymentsDeps }): void {
  app.post(URL, { config: { functionUser: true } }, async (request, reply) => {
    return noStore(reply).send(await startCheckout(deps.payments, callerOf(request).userId));
  });
  refuseOtherMethods(app, URL, 'POST');
}
