/**
 * Issue 22: the Scammer Network subscription paid through Stripe. The real server and database, the real
 * `stripe` package (on the server, and in the test for signing webhook payloads with its own
 * `generateTestHeaderString`), and a small local fake of the few Stripe endpoints used
 * (tests/support/stripe-fake.ts). Nothing reaches the internet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELAXED_LIMITS } from '#tests/support/server-process.ts';
import {
  checkoutCompletedObject,
  type FakeSubscription,
  invoiceObject,
  newSubscription,
  type StripeFake,
  signedEvent,
  startStripeFake,
  subscriptionEventObject,
} from '#tests/support/stripe-fake.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { type SignedInUser, signedInUser } from '#tests/support/users.ts';

let server: TestServer;
let fake: StripeFake;
const DAY = 24 * 3600;

beforeAll(async () => {
  fake = await startStripeFake();
  server = await startTestServer({ ...RELAXED_LIMITS, ...fake.env, SUBSCRIPTION_GRACE_DAYS: '5' });
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

function call(name: string, member: SignedInUser | null, body?: unknown) {
  return fetch(`${server.url}/functions/v1/${name}`, {
    method: 'POST',
    headers: {
      ...(member ? { authorization: `Bearer ${member.token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function deliver(
  event: { body: string; signature: string },
  signature: string | null = event.signature,
) {
  return fetch(`${server.url}/functions/v1/stripe-webhook`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...(signature !== null ? { 'stripe-signature': signature } : {}),
    },
    body: event.body,
  });
}

interface Row {
  status: string;
  /** Epoch milliseconds. */
  expires_at: number;
  provider: string;
  stripe_subscription_id: string | null;
  stripe_customer_id: string | null;
  payment_failed_at: number | null;
}

async function rowOf(member: SignedInUser): Promise<Row | undefined> {
  const { rows } = await server.db.query<Row>(
    `select status, (extract(epoch from expires_at) * 1000)::float8 as expires_at, provider,
       stripe_subscription_id, stripe_customer_id,
       (extract(epoch from payment_failed_at) * 1000)::float8 as payment_failed_at
     from public.scammer_subscriptions where user_id = $1`,
    [member.id],
  );
  return rows[0];
}

async function hasAccess(member: SignedInUser): Promise<boolean> {
  const { data, error } = await member.client.rpc('has_scammer_access');
  if (error) throw new Error(error.message);
  return data === true;
}

async function outcomeOf(eventId: string): Promise<string | undefined> {
  const { rows } = await server.db.query<{ outcome: string }>(
    'select outcome from private.stripe_events where id = $1',
    [eventId],
  );
  return rows[0]?.outcome;
}

/** A signed-in member whose free trial is over (so access comes from the subscription alone). */
async function newMember(): Promise<SignedInUser> {
  const user = await signedInUser(server);
  await server.db.query(
    `update public.profiles set trial_ends_at = now() - interval '1 second' where user_id = $1`,
    [user.id],
  );
  return user;
}

/** A member whose Checkout completed: the subscription exists at the fake, the events are delivered. */
async function subscribed(start = Math.floor(Date.now() / 1000) - 60): Promise<{
  member: SignedInUser;
  subscription: FakeSubscription;
}> {
  const member = await newMember();
  const subscription = newSubscription(member.id, start);
  fake.subscriptions.set(subscription.id, subscription);
  const completed = signedEvent(
    'checkout.session.completed',
    checkoutCompletedObject('cs_test_done', subscription, member.id),
    { created: start },
  );
  expect((await deliver(completed)).status).toBe(200);
  return { member, subscription };
}

describe('subscribing through Stripe Checkout', () => {
  it('creates a Checkout session for the monthly price and gives no access before the webhook', async () => {
    const member = await newMember();
    const response = await call('stripe-checkout', member);
    expect(response.status).toBe(200);
    const { url } = (await response.json()) as { url: string };
    expect(url).toMatch(new RegExp(`^${fake.url}/pay/cs_test_`));
    const form = fake.checkoutSessions.get(url.split('/').pop() as string) as URLSearchParams;
    expect(form.get('mode')).toBe('subscription');
    expect(form.get('client_reference_id')).toBe(member.id);
    expect(form.get('subscription_data[metadata][user_id]')).toBe(member.id);
    expect(form.get('customer_email')).toBe(member.email);
    expect(form.get('success_url')).toBe(
      `${server.server.ctx.config.siteUrl}/profile?tab=subscription&checkout=success&session_id={CHECKOUT_SESSION_ID}`,
    );
    expect(form.get('cancel_url')).toBe(
      `${server.server.ctx.config.siteUrl}/profile?tab=subscription&checkout=cancelled`,
    );
    expect(await rowOf(member)).toBeUndefined();
    expect(await hasAccess(member)).toBe(false);
  });

  it('refuses the demo activation when payments are configured', async () => {
    const member = await newMember();
    const response = await call('subscription-activate', member);
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ error: 'payment_required' });
    expect(await rowOf(member)).toBeUndefined();
  });

  it('starts access on the signed checkout.session.completed, until the period end', async () => {
    const { member, subscription } = await subscribed();
    const row = await rowOf(member);
    expect(row).toMatchObject({
      status: 'active',
      provider: 'stripe',
      stripe_subscription_id: subscription.id,
      stripe_customer_id: subscription.customer,
      payment_failed_at: null,
    });
    expect(row?.expires_at).toBe(subscription.current_period_end * 1000);
    expect(await hasAccess(member)).toBe(true);
    // A second Checkout while subscribed is refused (no double billing).
    const again = await call('stripe-checkout', member);
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: 'already_subscribed' });
  });

  it('applies each event once: a repeated delivery changes nothing', async () => {
    const { member, subscription } = await subscribed();
    const renewed = { ...subscription, current_period_end: subscription.current_period_end + 30 * DAY };
    const event = signedEvent('customer.subscription.updated', subscriptionEventObject(renewed));
    expect((await (await deliver(event)).json()) as object).toMatchObject({ outcome: 'applied' });
    // Meanwhile an admin moved the row; the same event delivered again must not undo that.
    await server.db.query(
      `update public.scammer_subscriptions set expires_at = now() + interval '3 days' where user_id = $1`,
      [member.id],
    );
    const repeat = await deliver(event);
    expect(repeat.status).toBe(200);
    expect(await repeat.json()).toMatchObject({ outcome: 'duplicate' });
    const row = await rowOf(member);
    expect(row?.expires_at).toBeLessThan(Date.now() + 4 * DAY * 1000);
    const { rows } = await server.db.query<{ n: number }>(
      'select count(*)::int as n from private.stripe_events where id = $1',
      [event.id],
    );
    expect(rows[0]?.n).toBe(1);
  });

  it('keeps the newest state when events arrive out of order', async () => {
    const { member, subscription } = await subscribed(Math.floor(Date.now() / 1000) - 600);
    const now = Math.floor(Date.now() / 1000);
    const cancelled = signedEvent(
      'customer.subscription.updated',
      subscriptionEventObject({ ...subscription, cancel_at_period_end: true }),
      { created: now - 10 },
    );
    const older = signedEvent('customer.subscription.created', subscriptionEventObject(subscription), {
      created: now - 300,
    });
    expect(await (await deliver(cancelled)).json()).toMatchObject({ outcome: 'applied' });
    expect(await (await deliver(older)).json()).toMatchObject({ outcome: 'stale' });
    expect(await outcomeOf(older.id)).toBe('stale');
    const row = await rowOf(member);
    expect(row?.status).toBe('cancelled');
    expect(row?.expires_at).toBe(subscription.current_period_end * 1000);
    // Cancelled at period end: access continues until then.
    expect(await hasAccess(member)).toBe(true);
  });

  it('keeps events 90 days; a pruned event delivered again still cannot undo a newer state', async () => {
    const member = await newMember();
    const now = Math.floor(Date.now() / 1000);
    const subscription = newSubscription(member.id, now - 600);
    fake.subscriptions.set(subscription.id, subscription);
    const completed = signedEvent(
      'checkout.session.completed',
      checkoutCompletedObject('cs_test_prune', subscription, member.id),
      { created: now - 600 },
    );
    const cancelled = signedEvent(
      'customer.subscription.updated',
      subscriptionEventObject({ ...subscription, cancel_at_period_end: true }),
      { created: now - 10 },
    );
    expect(await (await deliver(completed)).json()).toMatchObject({ outcome: 'applied' });
    expect(await (await deliver(cancelled)).json()).toMatchObject({ outcome: 'applied' });
    const recent = signedEvent('customer.subscription.updated', subscriptionEventObject(subscription), {
      created: now - 5,
    });
    await server.db.query(
      `update private.stripe_events set received_at = now() - interval '91 days' where id = any($1)`,
      [[completed.id, cancelled.id]],
    );
    await server.db.query(
      `insert into private.stripe_events (id, type, provider_created_at, received_at)
       values ($1, 'customer.subscription.updated', now(), now() - interval '89 days')`,
      [recent.id],
    );
    const { rows } = await server.db.query<{ deleted: number }>(
      'select private.stripe_events_prune() as deleted',
    );
    expect(rows[0]?.deleted).toBeGreaterThanOrEqual(2);
    expect(await outcomeOf(completed.id)).toBeUndefined();
    expect(await outcomeOf(cancelled.id)).toBeUndefined();
    expect(await outcomeOf(recent.id)).toBe('received');
    // Stripe delivering the old one again (it no longer would after 3 days) is judged by its age.
    expect(await (await deliver(completed)).json()).toMatchObject({ outcome: 'stale' });
    expect((await rowOf(member))?.status).toBe('cancelled');
  });

  it('a forged or missing signature gets 400 and changes nothing', async () => {
    const { member, subscription } = await subscribed();
    const before = await rowOf(member);
    const ended = subscriptionEventObject({
      ...subscription,
      status: 'canceled',
      ended_at: Math.floor(Date.now() / 1000),
    });
    const forged = signedEvent('customer.subscription.deleted', ended, { secret: 'whsec_someoneelse' });
    const response = await deliver(forged);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_signature' });
    const unsigned = await deliver(forged, null);
    expect(unsigned.status).toBe(400);
    expect(await unsigned.json()).toMatchObject({ error: 'missing_signature' });
    // A genuine signature over another body does not carry over.
    const genuine = signedEvent('customer.subscription.deleted', ended);
    const tampered = await deliver({
      body: genuine.body.replace('"livemode":false', '"livemode":true'),
      signature: genuine.signature,
    });
    expect(tampered.status).toBe(400);
    expect(await outcomeOf(forged.id)).toBeUndefined();
    expect(await outcomeOf(genuine.id)).toBeUndefined();
    expect(await rowOf(member)).toEqual(before);
    expect(await hasAccess(member)).toBe(true);
  });

  it('refuses a replayed old event (signed longer ago than the tolerance)', async () => {
    const { member, subscription } = await subscribed();
    const ended = subscriptionEventObject({
      ...subscription,
      status: 'canceled',
      ended_at: Math.floor(Date.now() / 1000),
    });
    const old = Math.floor(Date.now() / 1000) - 3600;
    const replayed = signedEvent('customer.subscription.deleted', ended, { created: old, timestamp: old });
    const response = await deliver(replayed);
    expect(response.status).toBe(400);
    expect(await outcomeOf(replayed.id)).toBeUndefined();
    expect(await hasAccess(member)).toBe(true);
  });

  it('a failed renewal gives a grace period and a notification; a paid invoice clears it', async () => {
    const start = Math.floor(Date.now() / 1000) - 31 * DAY;
    const { member, subscription } = await subscribed(start);
    // The period ended; Stripe renews into the next one and the payment fails.
    const next = { start: subscription.current_period_end, end: subscription.current_period_end + 30 * DAY };
    const now = Math.floor(Date.now() / 1000);
    const failed = signedEvent('invoice.payment_failed', invoiceObject(subscription, next), {
      created: now - 5,
    });
    const pastDue = signedEvent(
      'customer.subscription.updated',
      subscriptionEventObject({
        ...subscription,
        status: 'past_due',
        current_period_start: next.start,
        current_period_end: next.end,
      }),
      { created: now - 4 },
    );
    expect(await (await deliver(failed)).json()).toMatchObject({ outcome: 'applied' });
    expect(await (await deliver(pastDue)).json()).toMatchObject({ outcome: 'applied' });
    const row = await rowOf(member);
    expect(row?.payment_failed_at).toBe((now - 5) * 1000);
    // Grace: five days (SUBSCRIPTION_GRACE_DAYS) from the failure, not the whole unpaid month.
    expect(row?.expires_at).toBe((now - 5 + 5 * DAY) * 1000);
    expect(row?.status).toBe('active');
    expect(await hasAccess(member)).toBe(true);
    const { data: notes } = await member.client.from('notifications').select('kind, title, message, link');
    expect(notes).toContainEqual(
      expect.objectContaining({
        kind: 'subscription.payment_failed',
        title: 'Your Scammer Network payment failed',
        link: '/profile?tab=subscription',
      }),
    );
    // The retry succeeds: the period is paid, the failure is cleared.
    const paid = signedEvent('invoice.paid', invoiceObject(subscription, next), { created: now - 2 });
    const active = signedEvent(
      'customer.subscription.updated',
      subscriptionEventObject({
        ...subscription,
        status: 'active',
        current_period_start: next.start,
        current_period_end: next.end,
      }),
      { created: now - 1 },
    );
    expect(await (await deliver(paid)).json()).toMatchObject({ outcome: 'applied' });
    expect(await (await deliver(active)).json()).toMatchObject({ outcome: 'applied' });
    // The failure delivered late again (Stripe retries deliveries) is a duplicate; an older one is stale.
    expect(await (await deliver(failed)).json()).toMatchObject({ outcome: 'duplicate' });
    const lateFailure = signedEvent('invoice.payment_failed', invoiceObject(subscription, next), {
      created: now - 3,
    });
    expect(await (await deliver(lateFailure)).json()).toMatchObject({ outcome: 'stale' });
    const after = await rowOf(member);
    expect(after?.payment_failed_at).toBeNull();
    expect(after?.expires_at).toBe(next.end * 1000);
  });

  it('ends access when the grace period passes unpaid (unpaid / deleted)', async () => {
    const start = Math.floor(Date.now() / 1000) - 40 * DAY;
    const { member, subscription } = await subscribed(start);
    const failedAt = Math.floor(Date.now() / 1000) - 8 * DAY;
    const next = { start: subscription.current_period_end, end: subscription.current_period_end + 30 * DAY };
    await deliver(
      signedEvent('invoice.payment_failed', invoiceObject(subscription, next), { created: failedAt }),
    );
    // Eight days after the failure, five days of grace are over.
    expect(await hasAccess(member)).toBe(false);
    const deleted = signedEvent(
      'customer.subscription.deleted',
      subscriptionEventObject({ ...subscription, status: 'canceled', ended_at: failedAt + 7 * DAY }),
    );
    expect(await (await deliver(deleted)).json()).toMatchObject({ outcome: 'applied' });
    expect((await rowOf(member))?.status).toBe('cancelled');
    expect(await hasAccess(member)).toBe(false);
  });

  it('cancel asks Stripe for cancel at period end; access continues until then; expiry ends it', async () => {
    const { member, subscription } = await subscribed();
    const response = await call('subscription-cancel', member);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { subscription: { status: string; expires_at: string } };
    expect(body.subscription.status).toBe('cancelled');
    expect(Date.parse(body.subscription.expires_at)).toBe(subscription.current_period_end * 1000);
    expect(fake.subscriptions.get(subscription.id)?.cancel_at_period_end).toBe(true);
    expect(
      fake.requests.some((r) => r.method === 'POST' && r.path === `/v1/subscriptions/${subscription.id}`),
    ).toBe(true);
    expect(await hasAccess(member)).toBe(true);
    // The webhook for the same change, then the end of the period: Stripe deletes the subscription.
    const update = signedEvent(
      'customer.subscription.updated',
      subscriptionEventObject({ ...subscription, cancel_at_period_end: true }),
    );
    expect((await deliver(update)).status).toBe(200);
    const end = Math.floor(Date.now() / 1000) - 1;
    const deleted = signedEvent(
      'customer.subscription.deleted',
      subscriptionEventObject({
        ...subscription,
        status: 'canceled',
        cancel_at_period_end: true,
        current_period_end: end,
        ended_at: end,
      }),
      { created: end + 1 },
    );
    expect(await (await deliver(deleted)).json()).toMatchObject({ outcome: 'applied' });
    expect(await hasAccess(member)).toBe(false);
    // Nothing left to cancel.
    expect((await call('subscription-cancel', member)).status).toBe(409);
  });

  it('opens the customer portal for a member with a billing account', async () => {
    const { member, subscription } = await subscribed();
    const response = await call('stripe-portal', member);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { url: string }).url).toMatch(new RegExp(`^${fake.url}/portal/bps_`));
    const request = fake.requests.findLast((r) => r.path === '/v1/billing_portal/sessions');
    expect(request?.form.get('customer')).toBe(subscription.customer);
    const stranger = await newMember();
    const none = await call('stripe-portal', stranger);
    expect(none.status).toBe(409);
    expect(await none.json()).toMatchObject({ error: 'no_billing_account' });
  });

  it('answers 502 and changes nothing when the provider fails', async () => {
    const member = await newMember();
    // The package retries once (maxNetworkRetries 1): the outage outlasts the retry.
    fake.failNext = 500;
    fake.failCount = 2;
    const response = await call('stripe-checkout', member);
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ error: 'payment_provider_unavailable' });
    fake.failNext = null;
    expect(await rowOf(member)).toBeUndefined();
  });

  it('needs a signed-in member for checkout, portal and cancel', async () => {
    for (const name of ['stripe-checkout', 'stripe-portal', 'subscription-cancel']) {
      expect((await call(name, null)).status).toBe(401);
    }
  });
});

describe('deleting the account', () => {
  it('cancels the Stripe subscription first, so a deleted member is never charged again', async () => {
    const { member, subscription } = await subscribed();
    // Stripe down (the retry too): nothing is deleted.
    fake.failNext = 500;
    fake.failCount = 2;
    const remove = () =>
      fetch(`${server.url}/functions/v1/gdpr-data-deletion`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${member.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ confirm_deletion: true }),
      });
    const refused = await remove();
    expect(refused.status).toBe(502);
    expect(await refused.json()).toMatchObject({ error: 'payment_provider_unavailable' });
    expect(await rowOf(member)).toBeDefined();
    expect(fake.subscriptions.get(subscription.id)?.status).toBe('active');
    // Stripe back: the subscription is cancelled at once, then the account is erased.
    expect((await remove()).status).toBe(200);
    expect(fake.subscriptions.get(subscription.id)?.status).toBe('canceled');
    expect(
      fake.requests.some((r) => r.method === 'DELETE' && r.path === `/v1/subscriptions/${subscription.id}`),
    ).toBe(true);
    expect(await rowOf(member)).toBeUndefined();
  });
});

describe('the data API', () => {
  it('never lets a member activate, extend or move their subscription', async () => {
    const { member } = await subscribed();
    const before = await rowOf(member);
    const insert = await member.client.from('scammer_subscriptions').upsert({
      user_id: member.id,
      status: 'active',
      expires_at: new Date(Date.now() + 400 * DAY * 1000).toISOString(),
    });
    expect(insert.error).not.toBeNull();
    const update = await member.client
      .from('scammer_subscriptions')
      .update({
        expires_at: new Date(Date.now() + 20 * DAY * 1000).toISOString(),
        stripe_subscription_id: null,
      })
      .eq('user_id', member.id)
      .select();
    expect(update.data ?? []).toEqual([]);
    const stranger = await newMember();
    const fresh = await stranger.client.from('scammer_subscriptions').insert({
      user_id: stranger.id,
      status: 'active',
      expires_at: new Date(Date.now() + DAY * 1000).toISOString(),
    });
    expect(fresh.error?.code).toBe('42501');
    expect(await rowOf(member)).toEqual(before);
    expect(await rowOf(stranger)).toBeUndefined();
  });
});
