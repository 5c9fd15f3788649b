import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A small local stand-in for the few Stripe API endpoints HighGrade uses, speaking Stripe's protocol
 * (form-encoded requests with a bearer secret key, JSON objects and Stripe's error envelope back), so
 * the real `stripe` package talks to it through its host/port/protocol options (STRIPE_API_BASE):
 *
 *   POST /v1/checkout/sessions            → a Checkout session whose url is this server's /pay page
 *   POST /v1/billing_portal/sessions      → a portal session whose url is this server's /portal page
 *   GET  /v1/subscriptions/:id            → the subscription held here
 *   POST /v1/subscriptions/:id            → cancel_at_period_end=true|false
 *   DELETE /v1/subscriptions/:id          → cancelled now (account deletion)
 *   GET  /pay/:session, /portal/:session  → plain pages standing in for Stripe's hosted ones
 *
 * Tests arrange subscriptions and build webhook events signed with the package's own
 * `stripe.webhooks.generateTestHeaderString`; the fake never sends webhooks itself.
 */

export const FAKE_SECRET_KEY = 'sk_test_highgradefake';
export const FAKE_WEBHOOK_SECRET = 'whsec_highgradefaketestsecret';
export const FAKE_PRICE_ID = 'price_highgrademonthly';

export interface FakeSubscription {
  id: string;
  customer: string;
  status: Stripe.Subscription.Status;
  current_period_start: number;
  current_period_end: number;
  cancel_at_period_end: boolean;
  ended_at: number | null;
  metadata: Record<string, string>;
}

export interface StripeFake {
  url: string;
  /** The env that points a HighGrade server at this fake. */
  env: Record<string, string>;
  /** Every request: method, path, form fields and the Authorization header. */
  requests: { method: string; path: string; form: URLSearchParams; authorization: string | undefined }[];
  checkoutSessions: Map<string, URLSearchParams>;
  subscriptions: Map<string, FakeSubscription>;
  /** The next `failCount` requests to an API endpoint fail with this status (a provider outage). */
  failNext: number | null;
  failCount: number;
  close(): Promise<void>;
}

const stripe = new Stripe(FAKE_SECRET_KEY);

/** Stripe-like ids: prefix + 24 random characters. */
export function stripeId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

function subscriptionObject(subscription: FakeSubscription): Record<string, unknown> {
  // API 2025-03-31 and later: the period lives on the item (HighGrade reads both places).
  return {
    id: subscription.id,
    object: 'subscription',
    customer: subscription.customer,
    status: subscription.status,
    cancel_at_period_end: subscription.cancel_at_period_end,
    cancel_at: null,
    ended_at: subscription.ended_at,
    metadata: subscription.metadata,
    items: {
      object: 'list',
      data: [
        {
          id: `si_${subscription.id.slice(4)}`,
          object: 'subscription_item',
          current_period_start: subscription.current_period_start,
          current_period_end: subscription.current_period_end,
          price: { id: FAKE_PRICE_ID, object: 'price' },
        },
      ],
    },
  };
}

/**
 * A webhook delivery as Stripe sends it: the event JSON and a Stripe-Signature header made by the
 * stripe package's test helper (timestamp defaults to now; `secret` defaults to the fake's).
 */
export function signedEvent(
  type: string,
  object: Record<string, unknown>,
  options: { id?: string; created?: number; timestamp?: number; secret?: string } = {},
): { id: string; body: string; signature: string } {
  const id = options.id ?? stripeId('evt');
  const body = JSON.stringify({
    id,
    object: 'event',
    api_version: '2026-10-28.endive',
    created: options.created ?? Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  });
  const signature = stripe.webhooks.generateTestHeaderString({
    payload: body,
    secret: options.secret ?? FAKE_WEBHOOK_SECRET,
    ...(options.timestamp !== undefined ? { timestamp: options.timestamp } : {}),
  });
  return { id, body, signature };
}

export function subscriptionEventObject(subscription: FakeSubscription): Record<string, unknown> {
  return subscriptionObject(subscription);
}

export function invoiceObject(
  subscription: FakeSubscription,
  period: { start: number; end: number },
): Record<string, unknown> {
  return {
    id: stripeId('in'),
    object: 'invoice',
    customer: subscription.customer,
    parent: {
      type: 'subscription_details',
      subscription_details: { subscription: subscription.id, metadata: subscription.metadata },
    },
    lines: { object: 'list', data: [{ id: stripeId('il'), period }] },
  };
}

export function checkoutCompletedObject(
  sessionId: string,
  subscription: FakeSubscription,
  userId: string,
): Record<string, unknown> {
  return {
    id: sessionId,
    object: 'checkout.session',
    mode: 'subscription',
    status: 'complete',
    client_reference_id: userId,
    customer: subscription.customer,
    subscription: subscription.id,
    metadata: { user_id: userId },
  };
}

function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
    request.on('error', reject);
  });
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json', 'request-id': stripeId('req') });
  response.end(JSON.stringify(body));
}

function stripeError(response: ServerResponse, status: number, message: string): void {
  send(response, status, { error: { type: 'invalid_request_error', message } });
}

/** Starts the fake on a free local port. */
export async function startStripeFake(): Promise<StripeFake> {
  const fake: Omit<StripeFake, 'url' | 'env' | 'close'> = {
    requests: [],
    checkoutSessions: new Map(),
    subscriptions: new Map(),
    failNext: null,
    failCount: 1,
  };
  let base = '';
  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', base);
      const form = request.method === 'POST' ? await readForm(request) : url.searchParams;
      if (url.pathname.startsWith('/pay/') || url.pathname.startsWith('/portal/')) {
        const page = url.pathname.startsWith('/pay/')
          ? 'Fake Stripe Checkout'
          : 'Fake Stripe customer portal';
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end(
          `<!doctype html><html lang="en"><link rel="icon" href="data:,"><title>${page}</title><main><h1>${page}</h1><p>${url.pathname.split('/')[2]}</p></main></html>`,
        );
        return;
      }
      if (!url.pathname.startsWith('/v1/')) {
        response.writeHead(204);
        response.end();
        return;
      }
      fake.requests.push({
        method: request.method ?? 'GET',
        path: url.pathname,
        form,
        authorization: request.headers.authorization,
      });
      if (request.headers.authorization !== `Bearer ${FAKE_SECRET_KEY}`) {
        send(response, 401, {
          error: { type: 'invalid_request_error', message: 'Invalid API Key provided' },
        });
        return;
      }
      if (fake.failNext !== null) {
        const status = fake.failNext;
        fake.failCount -= 1;
        if (fake.failCount <= 0) {
          fake.failNext = null;
          fake.failCount = 1;
        }
        send(response, status, { error: { type: 'api_error', message: 'The fake is down' } });
        return;
      }
      if (request.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        if (form.get('mode') !== 'subscription')
          return stripeError(response, 400, 'mode must be subscription');
        if (form.get('line_items[0][price]') !== FAKE_PRICE_ID)
          return stripeError(response, 400, 'No such price');
        const id = stripeId('cs_test');
        fake.checkoutSessions.set(id, form);
        send(response, 200, {
          id,
          object: 'checkout.session',
          mode: 'subscription',
          url: `${base}/pay/${id}`,
          client_reference_id: form.get('client_reference_id'),
        });
        return;
      }
      if (request.method === 'POST' && url.pathname === '/v1/billing_portal/sessions') {
        const customer = form.get('customer');
        if (!customer) return stripeError(response, 400, 'Missing required param: customer.');
        const id = stripeId('bps');
        send(response, 200, {
          id,
          object: 'billing_portal.session',
          customer,
          return_url: form.get('return_url'),
          url: `${base}/portal/${id}`,
        });
        return;
      }
      const match = /^\/v1\/subscriptions\/(sub_[A-Za-z0-9]+)$/.exec(url.pathname);
      if (match) {
        const subscription = fake.subscriptions.get(match[1] as string);
        if (!subscription) return stripeError(response, 404, `No such subscription: '${match[1]}'`);
        if (request.method === 'POST') {
          const cancel = form.get('cancel_at_period_end');
          if (cancel !== null) subscription.cancel_at_period_end = cancel === 'true';
        }
        if (request.method === 'DELETE') {
          subscription.status = 'canceled';
          subscription.ended_at = Math.floor(Date.now() / 1000);
        }
        send(response, 200, subscriptionObject(subscription));
        return;
      }
      stripeError(response, 404, `Unrecognized request URL (${request.method}: ${url.pathname})`);
    })().catch((error: unknown) => {
      response.writeHead(500);
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;
  return Object.assign(fake, {
    url: base,
    env: {
      STRIPE_SECRET_KEY: FAKE_SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: FAKE_WEBHOOK_SECRET,
      STRIPE_PRICE_ID: FAKE_PRICE_ID,
      STRIPE_API_BASE: base,
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/** A subscription as Stripe would hold it after a paid Checkout: one month from `start`. */
export function newSubscription(userId: string, start = Math.floor(Date.now() / 1000)): FakeSubscription {
  return {
    id: stripeId('sub'),
    customer: stripeId('cus'),
    status: 'active',
    current_period_start: start,
    current_period_end: start + 30 * 24 * 3600,
    cancel_at_period_end: false,
    ended_at: null,
    metadata: { user_id: userId },
  };
}
