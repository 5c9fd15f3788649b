import type { FastifyInstance } from 'fastify';
import { callerOf, noStore, refuseOtherMethods } from '../../../functions/http.ts';
import type { PaymentsDeps } from '../payments.ts';
import { cancelSubscription } from '../payments.ts';

const URL = '/subscription-cancel';

/**
 * POST /functions/v1/subscription-cancel — cancel at the end of the paid period (access continues until
 * `expires_at`), in either mode: Stripe is told cancel_at_period_end; a demo or admin grant is marked
 * cancelled. Answers the subscription as it now stands.
 */
export default function subscriptionCancel(app: FastifyInstance, deps: { payments: PaymentsDeps }): void {
  app.post(URL, { config: { functionUser: true } }, async (request, reply) => {
    const subscription = await cancelSubscription(deps.payments, callerOf(request).userId);
    return noStore(reply).send({ subscription });
  });
  refuseOtherMethods(app, URL, 'POST');
}
