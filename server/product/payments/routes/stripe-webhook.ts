import type { FastifyInstance } from 'fastify';
import { noStore, refuseOtherMethods } from '../../../functions/http.ts';
import type { PaymentsDeps } from '../payments.ts';
import { receiveWebhook } from '../payments.ts';

const URL = '/stripe-webhook';
/** Stripe's events are a few KiB; the largest invoices stay well below this. */
const WEBHOOK_BODY_LIMIT = 512 * 1024;

/**
 * POST /functions/v1/stripe-webhook — Stripe's event deliveries. No user token: the Stripe-Signature
 * header over the raw body (checked by the stripe package) is the credential. Its own context keeps
 * the body as bytes, whatever the content type, so the signature is checked over what was sent.
 * 400 for a missing or wrong signature (nothing stored), 200 {received, outcome} otherwise —
 * a duplicate or stale event included, so Stripe stops retrying it.
 */
export default function stripeWebhook(app: FastifyInstance, deps: { payments: PaymentsDeps }): void {
  app.register(async (child) => {
    child.removeAllContentTypeParsers();
    child.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT },
      (_request, body, done) => done(null, body),
    );
    child.post(URL, async (request, reply) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const signature = request.headers['stripe-signature'];
      const result = await receiveWebhook(
        deps.payments,
        raw,
        Array.isArray(signature) ? signature[0] : signature,
      );
      return noStore(reply).send({ received: true, ...result });
    });
  });
  refuseOtherMethods(app, URL, 'POST');
}
