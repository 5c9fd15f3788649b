import type { FastifyInstance } from 'fastify';
import { callerOf, noStore, refuseOtherMethods } from '../../../functions/http.ts';
import type { PaymentsDeps } from '../payments.ts';
import { activateDemo, DEMO_MODE_LABEL } from '../payments.ts';

const URL = '/subscription-activate';

/**
 * POST /functions/v1/subscription-activate — demo mode only (no payment account): the spec's direct
 * activation, one month, no payment taken (decision 131). With Stripe configured: 409 payment_required.
 */
export default function subscriptionActivate(app: FastifyInstance, deps: { payments: PaymentsDeps }): void {
  app.post(URL, { config: { functionUser: true } }, async (request, reply) => {
    const subscription = await activateDemo(deps.payments, callerOf(request).userId);
    return noStore(reply).send({ mode: 'demo', notice: DEMO_MODE_LABEL, subscription });
  });
  refuseOtherMethods(app, URL, 'POST');
}
