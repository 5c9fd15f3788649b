/**
 * Issue 22 without a payment account (the default): the spec's direct activation as the labelled demo
 * mode, written by the server; cancelling keeps access until the end of the period; admins grant and
 * revoke, audited; Stripe's endpoints answer that payments are not set up.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELAXED_LIMITS } from '#tests/support/server-process.ts';
import { signedEvent } from '#tests/support/stripe-fake.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { type SignedInUser, signedInUser } from '#tests/support/users.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ ...RELAXED_LIMITS });
});
afterAll(() => server?.close());

async function member(): Promise<SignedInUser> {
  const user = await signedInUser(server);
  await server.db.query(
    `update public.profiles set trial_ends_at = now() - interval '1 second' where user_id = $1`,
    [user.id],
  );
  return user;
}

function call(name: string, user: SignedInUser) {
  return fetch(`${server.url}/functions/v1/${name}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.token}` },
  });
}

async function hasAccess(user: SignedInUser): Promise<boolean> {
  const { data, error } = await user.client.rpc('has_scammer_access');
  if (error) throw new Error(error.message);
  return data === true;
}

describe('demo mode', () => {
  it('says so in the page configuration', async () => {
    const page = await (await fetch(`${server.url}/profile`)).text();
    expect(page).toContain('"payments":"demo"');
  });

  it('activates one month directly, labelled, and never extends a running subscription', async () => {
    const user = await member();
    const response = await call('subscription-activate', user);
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      mode: string;
      notice: string;
      subscription: { status: string; expires_at: string; provider: string };
    };
    expect(body.mode).toBe('demo');
    expect(body.notice).toBe('Demo mode — no payment is taken');
    expect(body.subscription).toMatchObject({ status: 'active', provider: 'demo' });
    const month = Date.parse(body.subscription.expires_at) - Date.now();
    expect(month).toBeGreaterThan(27 * 86_400_000);
    expect(month).toBeLessThan(32 * 86_400_000);
    expect(await hasAccess(user)).toBe(true);
    const again = (await (await call('subscription-activate', user)).json()) as typeof body;
    expect(again.subscription.expires_at).toBe(body.subscription.expires_at);
  });

  it('cancels at the end of the period: access continues until the expiry; subscribing again resumes it', async () => {
    const user = await member();
    const activated = (await (await call('subscription-activate', user)).json()) as {
      subscription: { expires_at: string };
    };
    const cancelled = await call('subscription-cancel', user);
    expect(cancelled.status).toBe(200);
    expect(await cancelled.json()).toMatchObject({
      subscription: { status: 'cancelled', expires_at: activated.subscription.expires_at },
    });
    expect(await hasAccess(user)).toBe(true);
    const { data: notes } = await user.client.from('notifications').select('kind, message');
    expect(notes).toContainEqual(
      expect.objectContaining({
        kind: 'subscription.cancelled',
        message: expect.stringContaining('You keep access'),
      }),
    );
    expect((await call('subscription-cancel', user)).status).toBe(409);
    const resumed = (await (await call('subscription-activate', user)).json()) as {
      subscription: { status: string; expires_at: string };
    };
    expect(resumed.subscription).toEqual(
      expect.objectContaining({ status: 'active', expires_at: activated.subscription.expires_at }),
    );
    // The period over, access ends.
    await server.db.query(
      `update public.scammer_subscriptions set expires_at = now() - interval '1 second' where user_id = $1`,
      [user.id],
    );
    expect(await hasAccess(user)).toBe(false);
  });

  it('answers 409 from the Stripe functions, and 409 from the webhook', async () => {
    const user = await member();
    for (const name of ['stripe-checkout', 'stripe-portal']) {
      const response = await call(name, user);
      expect(response.status).toBe(409);
      expect(await response.json()).toMatchObject({ error: 'payments_not_configured' });
    }
    const event = signedEvent('customer.subscription.created', { id: 'sub_x', object: 'subscription' });
    const webhook = await fetch(`${server.url}/functions/v1/stripe-webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
      body: event.body,
    });
    expect(webhook.status).toBe(409);
    const get = await fetch(`${server.url}/functions/v1/stripe-webhook`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it('lets an admin grant and revoke a subscription, audited; a member cannot write their own', async () => {
    const admin = await signedInUser(server, { admin: true });
    const user = await member();
    const own = await user.client.from('scammer_subscriptions').insert({
      user_id: user.id,
      status: 'active',
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(own.error?.code).toBe('42501');
    const until = new Date(Date.now() + 90 * 86_400_000).toISOString();
    const grant = await admin.client
      .from('scammer_subscriptions')
      .insert({ user_id: user.id, status: 'active', expires_at: until })
      .select('provider')
      .single();
    expect(grant.error).toBeNull();
    expect(grant.data).toEqual({ provider: 'admin' });
    expect(await hasAccess(user)).toBe(true);
    const revoke = await admin.client.from('scammer_subscriptions').delete().eq('user_id', user.id);
    expect(revoke.error).toBeNull();
    expect(await hasAccess(user)).toBe(false);
    const { rows } = await server.db.query<{ action: string; actor_id: string }>(
      `select action, actor_id::text from private.audit_log
       where target_table = 'public.scammer_subscriptions' and target_id = $1 order by id`,
      [user.id],
    );
    expect(rows).toEqual([
      { action: 'INSERT', actor_id: admin.id },
      { action: 'DELETE', actor_id: admin.id },
    ]);
  });
});
