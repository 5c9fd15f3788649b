// @databases: both — notifications are written by database triggers.
/**
 * Issue 15 "Notifications from what happens", the Scammer Network subscription: activation,
 * cancellation and the approaching end of access are told by the database itself (a notification with
 * a link, and a mail for the reminder) — once each, whatever the client does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, clientFor } from '#tests/support/clients.ts';
import { RELAXED_LIMITS } from '#tests/support/server-process.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { type SignedInUser, signedInUser } from '#tests/support/users.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ ...RELAXED_LIMITS });
});
afterAll(() => server?.close());

async function notificationsOf(member: SignedInUser) {
  const { data, error } = await member.client
    .from('notifications')
    .select('kind, title, message, link')
    .order('created_at', { ascending: true });
  if (error) throw new Error(error.message);
  return data;
}

async function remind(): Promise<number> {
  const { rows } = await server.db.query<{ told: number }>(
    'select private.remind_expiring_subscriptions() as told',
  );
  return rows[0]?.told ?? -1;
}

async function queuedMail(to: string) {
  const { rows } = await server.db.query<{ type: string; subject: string; link: string }>(
    'select type, subject, link from private.mail_queue where to_email = $1 order by id',
    [to],
  );
  return rows;
}

describe('a new member', () => {
  it('is welcomed once, when they confirm the address they signed up with', async () => {
    const email = `welcome-${Date.now().toString(36)}@notifications.example`;
    const service = adminClient(server);
    const link = await service.auth.admin.generateLink({
      type: 'signup',
      email,
      password: 'welcome password',
    });
    expect(link.error).toBeNull();
    const client = clientFor(server);
    const confirmed = await client.auth.verifyOtp({
      token_hash: link.data.properties?.hashed_token ?? '',
      type: 'signup',
    });
    expect(confirmed.error).toBeNull();
    const { data } = await client
      .from('notifications')
      .select('kind, title, link, is_read')
      .order('created_at', { ascending: true });
    expect(data).toEqual([
      { kind: 'welcome', title: 'Welcome to HighGrade', link: '/profile', is_read: false },
    ]);

    // Confirming again (a second link) welcomes nobody twice.
    const again = await service.auth.admin.generateLink({ type: 'magiclink', email });
    await clientFor(server).auth.verifyOtp({
      token_hash: again.data.properties?.hashed_token ?? '',
      type: 'magiclink',
    });
    const after = await client.from('notifications').select('kind');
    expect(after.data).toEqual([{ kind: 'welcome' }]);
  });

  it('is not welcomed when an admin creates the account', async () => {
    const made = await signedInUser(server);
    expect(await notificationsOf(made)).toEqual([]);
  });
});

describe('a new member on an install without email confirmation (ENABLE_EMAIL_AUTOCONFIRM)', () => {
  let autoconfirm: TestServer;
  beforeAll(async () => {
    autoconfirm = await startTestServer({ ...RELAXED_LIMITS, ENABLE_EMAIL_AUTOCONFIRM: 'true' });
  });
  afterAll(() => autoconfirm?.close());

  it('is welcomed once when they sign up (decision 191)', async () => {
    const client = clientFor(autoconfirm);
    const email = `welcome-auto-${Date.now().toString(36)}@notifications.example`;
    const signedUp = await client.auth.signUp({ email, password: 'welcome password' });
    expect(signedUp.error).toBeNull();
    expect(signedUp.data.session).not.toBeNull();
    const { data, error } = await client.from('notifications').select('kind, title, link');
    expect(error).toBeNull();
    expect(data).toEqual([{ kind: 'welcome', title: 'Welcome to HighGrade', link: '/profile' }]);

    // Signing in again welcomes nobody twice.
    await client.auth.signOut();
    expect((await client.auth.signInWithPassword({ email, password: 'welcome password' })).error).toBeNull();
    expect((await client.from('notifications').select('kind')).data).toEqual([{ kind: 'welcome' }]);
  });

  it('is not welcomed when an admin creates the account, confirmed or not', async () => {
    const made = await signedInUser(autoconfirm);
    expect(await notificationsOf(made)).toEqual([]);
    const unconfirmed = await adminClient(autoconfirm).auth.admin.createUser({
      email: `made-${Date.now().toString(36)}@notifications.example`,
      password: 'made by an admin',
      email_confirm: false,
    });
    expect(unconfirmed.error).toBeNull();
    const { rows } = await autoconfirm.db.query(
      'select kind from public.notifications where user_id = any($1::uuid[])',
      [[made.id, unconfirmed.data.user?.id]],
    );
    expect(rows).toEqual([]);
  });
});

describe('the subscription tells its member', () => {
  it('when it starts, when it is cancelled and when it starts again', async () => {
    const member = await signedInUser(server);
    // The server writes the subscription (decision 131): the demo activation and cancellation.
    await server.db.query('select private.demo_activate_subscription($1)', [member.id]);
    await server.db.query('select private.demo_cancel_subscription($1)', [member.id]);
    // Cancelling again tells nothing new (there is nothing left to cancel).
    await server.db.query('select private.demo_cancel_subscription($1)', [member.id]);
    await server.db.query('select private.demo_activate_subscription($1)', [member.id]);

    const told = await notificationsOf(member);
    expect(told.map((n) => [n.kind, n.title, n.link])).toEqual([
      ['subscription.active', 'Your Scammer Network subscription is active', '/scammer-database'],
      [
        'subscription.cancelled',
        'Your Scammer Network subscription is cancelled',
        '/profile?tab=subscription',
      ],
      ['subscription.active', 'Your Scammer Network subscription is active again', '/scammer-database'],
    ]);
    expect(told[1]?.message).toMatch(
      /^You keep access to the Scammer Network until [A-Z][a-z]+ \d{1,2}, \d{4}\./,
    );
  });

  it('once, three days before a cancelled subscription ends — and not for one that renews', async () => {
    const leaving = await signedInUser(server);
    const staying = await signedInUser(server);
    const later = await signedInUser(server);
    const service = adminClient(server);
    const soon = new Date(Date.now() + 2 * 86_400_000).toISOString();
    for (const [member, status, expires] of [
      [leaving, 'cancelled', soon],
      [staying, 'active', soon],
      [later, 'cancelled', new Date(Date.now() + 10 * 86_400_000).toISOString()],
    ] as const) {
      const { error } = await service
        .from('scammer_subscriptions')
        .insert({ user_id: member.id, status, expires_at: expires });
      expect(error).toBeNull();
    }

    // (The server's hourly job may have run meanwhile: whoever runs first tells, nobody tells twice.)
    expect(await remind()).toBeGreaterThanOrEqual(0);
    expect(await remind()).toBe(0);

    const kinds = async (member: SignedInUser) => (await notificationsOf(member)).map((n) => n.kind);
    expect(await kinds(leaving)).toEqual(['subscription.cancelled', 'subscription.expiring']);
    expect(await kinds(staying)).toEqual(['subscription.active']);
    expect(await kinds(later)).toEqual(['subscription.cancelled']);
    expect(await queuedMail(leaving.email)).toEqual([
      {
        type: 'subscription_expiring',
        subject: 'Your Scammer Network access ends soon',
        link: '/profile?tab=subscription',
      },
    ]);
    expect(await queuedMail(staying.email)).toEqual([]);
  });

  it('cannot be written or forged by the member', async () => {
    const member = await signedInUser(server);
    const forged = await member.client.from('notifications').insert({
      user_id: member.id,
      kind: 'subscription.active',
      title: 'Free forever',
      message: 'Forged',
    });
    expect(forged.error).not.toBeNull();
    const rpc = await member.client.schema('private' as never).rpc('remind_expiring_subscriptions');
    expect(rpc.error).not.toBeNull();
  });
});
