import type { FastifyInstance } from 'fastify';
import { callerOf, noStore, refuseOtherMethods } from '../../../functions/http.ts';
import type { PaymentsDeps } from '../payments.ts';
import { openPortal } from '../payments.ts';

const URL = '/stripe-portal';

/** POST /functions/v1/stripe-portal — "Manage billing": a Stripe customer portal session {url}. */
export default function stripePortal(app: FastifyInstance, deps: { payments: PaymentsDeps }): void {
  app.post(URL, { config: { functionUser: true } }, async (request, reply) => {
    return noStore(reply).send(await openPortal(deps.payments, callerOf(request).userId));
  });
  refuseOtherMethods(app, URL, 'POST');
}
