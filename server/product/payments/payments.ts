import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import Stripe from 'stripe';
import type { PaymentsConfig } from '../../config.ts';
import type { Database } from '../../db/driver.ts';
import { ApiError } from '../../http/errors.ts';
import {
  applyStripeEvent,
  currentRow,
  demoActivate,
  demoCancel,
  emailOf,
  pruneStripeEvents,
  remindExpiringSubscriptions,
  type SubscriptionRow,
} from './db.ts';

/**
 * The Scammer Network subscription's payments (issue 22, decisions 131–133). With a Stripe account the
 * member pays in Stripe's hosted Checkout and the row follows Stripe's signed webhook events; without one
 * the spec's direct activation runs as the labelled demo mode. Only this file (and an admin, audited)
 * writes `scammer_subscriptions`.
 */

export type PaymentsMode = 'stripe' | 'demo';

/** Shown wherever demo mode is visible (tab, toasts, admin dashboard, start-up log). */
export const DEMO_MODE_LABEL = 'Demo mode — no payment is taken';

export interface PaymentsDeps {
  db: Database;
  log: FastifyBaseLogger;
  mode: PaymentsMode;
  /** Undefined in demo mode. */
  stripe: Stripe | undefined;
  priceId: string | undefined;
  webhookSecret: string | undefined;
  webhookToleranceSeconds: number;
  graceDays: number;
  siteUrl: string;
}

export function createPayments(
  config: PaymentsConfig,
  db: Database,
  log: FastifyBaseLogger,
  siteUrl: string,
): PaymentsDeps {
  const { stripe: account } = config;
  if (!account) {
    log.warn(
      `Payments: ${DEMO_MODE_LABEL}. "Subscribe" activates the Scammer Network directly; set STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and STRIPE_PRICE_ID to take card payments.`,
    );
  } else {
    log.info(
      `Payments: Stripe (price ${account.priceId}${account.apiBase ? `, API at ${account.apiBase.origin}` : ''})`,
    );
  }
  const base = account?.apiBase;
  return {
    db,
    log,
    mode: account ? 'stripe' : 'demo',
    stripe: account
      ? new Stripe(account.secretKey, {
          ...(base
            ? {
                host: base.hostname,
                port: Number(base.port || (base.protocol === 'https:' ? 443 : 80)),
                protocol: base.protocol === 'https:' ? 'https' : 'http',
              }
            : {}),
          maxNetworkRetries: 1,
          timeout: 15_000,
          appInfo: { name: 'HighGrade' },
        })
      : undefined,
    priceId: account?.priceId,
    webhookSecret: account?.webhookSecret,
    webhookToleranceSeconds: config.webhookToleranceSeconds,
    graceDays: config.graceDays,
    siteUrl,
  };
}

export const PaymentErrors = {
  stripeOnly: () =>
    new ApiError(
      409,
      'payments_not_configured',
      `Card payments are not set up on this site (${DEMO_MODE_LABEL}): use subscription-activate`,
    ),
  demoOnly: () =>
    new ApiError(
      409,
      'payment_required',
      'Subscriptions are paid by card on this site: start with stripe-checkout',
    ),
  alreadySubscribed: () =>
    new ApiError(
      409,
      'already_subscribed',
      'You already have access to the Scammer Network: manage your subscription under Manage billing',
    ),
  noBillingAccount: () =>
    new ApiError(409, 'no_billing_account', 'There is no billing account for you yet: subscribe first'),
  nothingToCancel: () => new ApiError(409, 'nothing_to_cancel', 'You have no running subscription to cancel'),
  providerFailed: (cause: unknown) =>
    new ApiError(
      502,
      'payment_provider_unavailable',
      'The payment provider could not be reached. Nothing was changed: please try again in a moment.',
      { cause },
    ),
  missingSignature: () => new ApiError(400, 'missing_signature', 'A Stripe-Signature header is required'),
  badSignature: () =>
    new ApiError(
      400,
      'invalid_signature',
      'The Stripe-Signature does not match this body, or the event is too old to accept',
    ),
};

/** What the tab shows: the member's row as the server answers it. */
export interface SubscriptionView {
  subscription_type: string;
  status: 'active' | 'cancelled';
  expires_at: string;
  created_at: string;
  provider: 'demo' | 'stripe' | 'admin';
  payment_failed_at: string | null;
}

const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

function view(row: SubscriptionRow): SubscriptionView {
  return {
    subscription_type: row.subscription_type,
    status: row.status,
    expires_at: iso(row.expires_at),
    created_at: iso(row.created_at),
    provider: row.provider,
    payment_failed_at: row.payment_failed_at === null ? null : iso(row.payment_failed_at),
  };
}

// ---------------------------------------------------------------------------------------------------
// Demo mode
// ---------------------------------------------------------------------------------------------------

/** Demo mode: one month of access, no payment (a running subscription is never extended). */
export async function activateDemo(deps: PaymentsDeps, userId: string): Promise<SubscriptionView> {
  if (deps.mode !== 'demo') throw PaymentErrors.demoOnly();
  return view((await demoActivate(deps.db, userId)) as SubscriptionRow);
}

// ---------------------------------------------------------------------------------------------------
// Stripe: Checkout, the customer portal, cancel at period end
// ---------------------------------------------------------------------------------------------------

function returnUrl(deps: PaymentsDeps, state?: string): string {
  return `${deps.siteUrl}/profile?tab=subscription${state ? `&checkout=${state}` : ''}`;
}

/** A Checkout session for the monthly price; the member is sent to its URL (hosted: no card data here). */
export async function startCheckout(deps: PaymentsDeps, userId: string): Promise<{ url: string }> {
  if (deps.mode !== 'stripe' || !deps.stripe || !deps.priceId) throw PaymentErrors.stripeOnly();
  const row = await currentRow(deps.db, userId);
  if (row && new Date(row.expires_at).getTime() > Date.now() && row.status === 'active') {
    throw PaymentErrors.alreadySubscribed();
  }
  if (
    row?.provider === 'stripe' &&
    row.status === 'cancelled' &&
    new Date(row.expires_at).getTime() > Date.now()
  ) {
    // Still paid for: renewing happens in the portal, so that no second subscription is billed.
    throw PaymentErrors.alreadySubscribed();
  }
  const email = await emailOf(deps.db, userId);
  let session: Stripe.Checkout.Session;
  try {
    session = await deps.stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: deps.priceId, quantity: 1 }],
      client_reference_id: userId,
      metadata: { user_id: userId },
      subscription_data: { metadata: { user_id: userId } },
      ...(row?.stripe_customer_id
        ? { customer: row.stripe_customer_id }
        : email
          ? { customer_email: email }
          : {}),
      success_url: `${returnUrl(deps, 'success')}&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: returnUrl(deps, 'cancelled'),
    });
  } catch (error) {
    throw PaymentErrors.providerFailed(error);
  }
  if (!session.url) throw PaymentErrors.providerFailed(new Error('Checkout session without url'));
  return { url: session.url };
}

/** The provider's customer portal (card, invoices, cancel or renew). */
export async function openPortal(deps: PaymentsDeps, userId: string): Promise<{ url: string }> {
  if (deps.mode !== 'stripe' || !deps.stripe) throw PaymentErrors.stripeOnly();
  const row = await currentRow(deps.db, userId);
  if (!row?.stripe_customer_id) throw PaymentErrors.noBillingAccount();
  try {
    const session = await deps.stripe.billingPortal.sessions.create({
      customer: row.stripe_customer_id,
      return_url: returnUrl(deps),
    });
    return { url: session.url };
  } catch (error) {
    throw PaymentErrors.providerFailed(error);
  }
}

/**
 * Cancel at the end of the paid period: access continues until `expires_at`. Stripe subscriptions are
 * told so (cancel_at_period_end) and the answer is applied at once as a state read from the provider;
 * demo and admin-granted ones are marked cancelled.
 */
export async function cancelSubscription(deps: PaymentsDeps, userId: string): Promise<SubscriptionView> {
  const row = await currentRow(deps.db, userId);
  if (row?.status !== 'active' || new Date(row.expires_at).getTime() <= Date.now()) {
    throw PaymentErrors.nothingToCancel();
  }
  if (row.provider === 'stripe') {
    if (!deps.stripe || !row.stripe_subscription_id) throw PaymentErrors.stripeOnly();
    let subscription: Stripe.Subscription;
    try {
      subscription = await deps.stripe.subscriptions.update(row.stripe_subscription_id, {
        cancel_at_period_end: true,
      });
    } catch (error) {
      throw PaymentErrors.providerFailed(error);
    }
    await applyFact(
      deps,
      `evt_hg_${randomUUID().replaceAll('-', '')}`,
      'highgrade.cancel_requested',
      // Stripe's event times are whole seconds: a webhook of this same second (the same change, or a
      // later one) still applies after this read.
      new Date((Math.floor(Date.now() / 1000) - 1) * 1000),
      false,
      subscriptionFact(subscription, userId),
    );
  } else {
    await demoCancel(deps.db, userId);
  }
  const after = await currentRow(deps.db, userId);
  return view(after as SubscriptionRow);
}

/**
 * Before an account is erased: a Stripe subscription still billing is cancelled at once at Stripe, so a
 * deleted member is never charged again. If Stripe cannot be reached the deletion does not start (502).
 */
export async function stopBillingBeforeDeletion(deps: PaymentsDeps, userId: string): Promise<void> {
  const row = await currentRow(deps.db, userId);
  if (row?.provider !== 'stripe' || !row.stripe_subscription_id || !deps.stripe) return;
  try {
    const subscription = await deps.stripe.subscriptions.retrieve(row.stripe_subscription_id);
    if (subscription.status === 'canceled' || subscription.status === 'incomplete_expired') return;
    await deps.stripe.subscriptions.cancel(row.stripe_subscription_id);
  } catch (error) {
    throw new ApiError(
      502,
      'payment_provider_unavailable',
      'Your subscription could not be cancelled at the payment provider, so nothing was deleted. Please try again in a moment.',
      { cause: error },
    );
  }
}

// ---------------------------------------------------------------------------------------------------
// The webhook
// ---------------------------------------------------------------------------------------------------

type Fact =
  | { kind: 'ignored' }
  | {
      kind: 'subscription';
      user_id: string | null;
      customer: string | null;
      subscription: string;
      status: string;
      period_start: number | null;
      period_end: number | null;
      cancel_at_period_end: boolean;
      ended_at: number | null;
    }
  | {
      kind: 'payment_failed' | 'paid';
      customer: string | null;
      subscription: string | null;
      period_end: number | null;
    };

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : value.id;
}

/**
 * What the row needs from a subscription object. The billing period sits on the subscription item
 * since API version 2025-03-31 and on the subscription before it: both are read.
 */
export function subscriptionFact(subscription: Stripe.Subscription, userId?: string | null): Fact {
  const item = subscription.items?.data?.[0] as
    | (Stripe.SubscriptionItem & { current_period_start?: number; current_period_end?: number })
    | undefined;
  const legacy = subscription as Stripe.Subscription & {
    current_period_start?: number;
    current_period_end?: number;
  };
  const metadataUser = subscription.metadata?.user_id;
  return {
    kind: 'subscription',
    user_id: userId ?? (typeof metadataUser === 'string' ? metadataUser : null),
    customer: idOf(subscription.customer as string | { id: string } | null),
    subscription: subscription.id,
    status: subscription.status,
    period_start: item?.current_period_start ?? legacy.current_period_start ?? null,
    period_end: item?.current_period_end ?? legacy.current_period_end ?? null,
    cancel_at_period_end:
      subscription.cancel_at_period_end === true || typeof subscription.cancel_at === 'number',
    ended_at: subscription.ended_at ?? null,
  };
}

function invoiceFact(kind: 'payment_failed' | 'paid', invoice: Stripe.Invoice): Fact {
  const legacy = invoice as Stripe.Invoice & { subscription?: string | { id: string } | null };
  const fromParent = invoice.parent?.subscription_details?.subscription as
    | string
    | { id: string }
    | undefined;
  const line = invoice.lines?.data?.[0];
  return {
    kind,
    customer: idOf(invoice.customer as string | { id: string } | null),
    subscription: idOf(fromParent ?? legacy.subscription ?? null),
    period_end: line?.period?.end ?? null,
  };
}

async function applyFact(
  deps: PaymentsDeps,
  eventId: string,
  type: string,
  created: Date,
  livemode: boolean,
  fact: Fact,
): Promise<string> {
  return applyStripeEvent(deps.db, eventId, type, created, livemode, fact, deps.graceDays);
}

/** Stripe's event types this server acts on (the endpoint should be registered for exactly these). */
export const WEBHOOK_EVENTS = [
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
] as const;

/**
 * A webhook delivery: the signature is checked over the raw body (and its timestamp against the
 * tolerance) by the stripe package; the event is then applied once, if newer than the row's state.
 */
export async function receiveWebhook(
  deps: PaymentsDeps,
  rawBody: Buffer,
  signature: string | undefined,
): Promise<{ event: string; outcome: string }> {
  if (deps.mode !== 'stripe' || !deps.stripe || !deps.webhookSecret) throw PaymentErrors.stripeOnly();
  if (!signature) throw PaymentErrors.missingSignature();
  let event: Stripe.Event;
  try {
    event = deps.stripe.webhooks.constructEvent(
      rawBody,
      signature,
      deps.webhookSecret,
      deps.webhookToleranceSeconds,
    );
  } catch {
    throw PaymentErrors.badSignature();
  }
  if (typeof event.id !== 'string' || !/^evt_[A-Za-z0-9_]{1,200}$/.test(event.id)) {
    throw new ApiError(400, 'invalid_event', 'The event has no valid id');
  }
  const created = new Date(event.created * 1000);
  let fact: Fact = { kind: 'ignored' };
  switch (event.type) {
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      fact = subscriptionFact(event.data.object);
      break;
    case 'invoice.paid':
      fact = invoiceFact('paid', event.data.object);
      break;
    case 'invoice.payment_failed':
      fact = invoiceFact('payment_failed', event.data.object);
      break;
    case 'checkout.session.completed': {
      const session = event.data.object;
      const subscriptionId = idOf(session.subscription as string | { id: string } | null);
      if (session.mode === 'subscription' && subscriptionId) {
        // The session names the member and the subscription; the subscription's state is read from
        // the provider (the event carries none).
        let subscription: Stripe.Subscription;
        try {
          subscription = await deps.stripe.subscriptions.retrieve(subscriptionId);
        } catch (error) {
          // Stripe retries the delivery: nothing is stored, so the retry is applied.
          throw PaymentErrors.providerFailed(error);
        }
        fact = subscriptionFact(
          subscription,
          session.client_reference_id ?? session.metadata?.user_id ?? null,
        );
      }
      break;
    }
  }
  const outcome = await applyFact(deps, event.id, event.type, created, event.livemode, fact);
  deps.log.info({ event: event.id, type: event.type, outcome }, 'stripe webhook');
  return { event: event.id, outcome };
}

/** Tells members whose cancelled subscription ends soon (once per end date); prunes old webhook events. */
export interface SubscriptionsDeps {
  remind(): Promise<number>;
  pruneEvents(): Promise<number>;
}

export function createSubscriptions(db: Database): SubscriptionsDeps {
  return { remind: () => remindExpiringSubscriptions(db), pruneEvents: () => pruneStripeEvents(db) };
}
