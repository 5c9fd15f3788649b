// @databases: both — role grants, suspensions and their guards are SQL functions and RLS.
/**
 * Issue 15 "Members and roles" through supabase-js: admins search members and see their role, access
 * and counts; grant and revoke the admin role (never the last one, whichever way it is asked); suspend
 * and restore accounts (no sign-in, no refresh, sessions ended) — each audited. A member can do none of
 * it, whatever they send.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, clientFor } from '#tests/support/clients.ts';
import { tableReads } from '#tests/support/plan-reads.ts';
import { RELAXED_LIMITS } from '#tests/support/server-process.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { createUser, PASSWORD, type SignedInUser, signedInUser } from '#tests/support/users.ts';
import { memberSearchQuery } from '#web/features/admin/member-search.ts';

let server: TestServer;
let service: SupabaseClient;
let admin: SignedInUser;
let member: SignedInUser;

const LAST_ADMIN = 'This is the last admin role: make another member an admin first.';

async function adminRows(userId: string): Promise<number> {
  const { data, error } = await service
    .from('user_roles')
    .select('id')
    .eq('user_id', userId)
    .eq('role', 'admin');
  if (error) throw new Error(error.message);
  return data.length;
}

beforeAll(async () => {
  server = await startTestServer({ ...RELAXED_LIMITS });
  service = adminClient(server);
  admin = await signedInUser(server, { email: 'ada@members.example', fullName: 'Ada Admin' });
  member = await signedInUser(server, { email: 'mel.Member@members.example', fullName: 'Mel Member' });
  const granted = await service.from('user_roles').insert({ user_id: admin.id, role: 'admin' });
  if (granted.error) throw new Error(granted.error.message);
});
afterAll(() => server?.close());

describe('the member list', () => {
  it('finds members by the beginnings of the words of their email, username or name, any case, with counts and access', async () => {
    const named = await signedInUser(server, { email: 'quinn@members.example', fullName: 'Quinn Zephyrine' });
    const username = await service.from('profiles').update({ username: 'qz_grower' }).eq('user_id', named.id);
    expect(username.error).toBeNull();
    const booked = await service.from('bookings').insert({
      user_id: named.id,
      full_name: 'Quinn Zephyrine',
      email: 'quinn@members.example',
      product_name: 'Blue Dream',
      product_category: 'Flower',
      booking_date: new Date(Date.now() + 9 * 86_400_000).toISOString().slice(0, 10),
      booking_time: '10:00',
    });
    expect(booked.error).toBeNull();

    // As the admin's page asks (decision 255): every word typed begins a word of theirs.
    for (const typed of ['zephyr', 'QZ_GROWER', 'quinn@members', 'Zeph quin', 'members.example qz']) {
      const { data, error } = await admin.client
        .from('admin_member_search')
        .select(
          'id, email, full_name, username, is_admin, suspended, booking_count, report_count, trial_ends_at',
        )
        .textSearch('search_words', memberSearchQuery(typed), { config: 'simple' });
      expect(error, typed).toBeNull();
      expect(data, typed).toEqual([
        expect.objectContaining({
          id: named.id,
          email: 'quinn@members.example',
          full_name: 'Quinn Zephyrine',
          username: 'qz_grower',
          is_admin: false,
          suspended: false,
          booking_count: 1,
          report_count: 0,
        }),
      ]);
      expect(Date.parse(data?.[0]?.trial_ends_at)).toBeGreaterThan(Date.now());
    }

    // The middle of a word finds no one; neither do a word another one only begins, nor a search of
    // punctuation alone (no words: no one, where `%` once matched everyone).
    for (const typed of ['ephyrine', 'zephyrines', "%_' "]) {
      const none = await admin.client
        .from('admin_member_search')
        .select('id')
        .textSearch('search_words', memberSearchQuery(typed), { config: 'simple' });
      expect(none.error, typed).toBeNull();
      expect(none.data, typed).toEqual([]);
    }

    const admins = await admin.client.from('admin_members').select('id').eq('is_admin', true);
    expect(admins.data?.map((row) => row.id)).toEqual([admin.id]);
  });

  it('shows a member nothing, and refuses them every action', async () => {
    const list = await member.client.from('admin_members').select('id');
    expect(list.error).toBeNull();
    expect(list.data).toEqual([]);

    for (const [fn, args] of [
      ['admin_set_admin_role', { member_id: member.id, make_admin: true }],
      ['admin_set_suspended', { member_id: admin.id, suspend: true }],
    ] as const) {
      const { error } = await member.client.rpc(fn, args);
      expect(error?.message).toBe('Unauthorized');
    }
    const selfGrant = await member.client.from('user_roles').insert({ user_id: member.id, role: 'admin' });
    expect(selfGrant.error?.code).toBe('42501');
    const revoke = await member.client.from('user_roles').delete().eq('user_id', admin.id).select('id');
    expect(revoke.data ?? []).toEqual([]);
    expect(await adminRows(member.id)).toBe(0);
    expect(await adminRows(admin.id)).toBe(1);
  });

  it('answers bad input with a clear error and changes nothing', async () => {
    const notUuid = await admin.client.rpc('admin_set_suspended', {
      member_id: "x' or 1=1 --",
      suspend: true,
    });
    expect(notUuid.error?.code).toBe('22P02');
    const unknown = await admin.client.rpc('admin_set_suspended', {
      member_id: '00000000-0000-4000-8000-000000000000',
      suspend: true,
    });
    expect(unknown.error?.message).toBe('Member not found.');
    expect(unknown.status).toBe(404);
    const missing = await admin.client.rpc('admin_set_admin_role', {
      member_id: member.id,
      make_admin: null,
    });
    expect(missing.error?.message).toBe('Say which member and whether to make them an admin.');
    const wrongType = await admin.client.rpc('admin_set_admin_role', {
      member_id: member.id,
      make_admin: 'maybe',
    });
    expect(wrongType.error).not.toBeNull();
    expect(await adminRows(member.id)).toBe(0);
  });
});

describe('the admin role', () => {
  it('keeps the last admin role, whether revoked through the screen or the data API', async () => {
    const screen = await admin.client.rpc('admin_set_admin_role', { member_id: admin.id, make_admin: false });
    expect(screen.error?.message).toBe(LAST_ADMIN);
    const direct = await admin.client.from('user_roles').delete().eq('user_id', admin.id);
    expect(direct.error?.message).toBe(LAST_ADMIN);
    expect(await adminRows(admin.id)).toBe(1);
  });

  it('is granted and revoked, each change audited; the new admin sees the list at once', async () => {
    const second = await signedInUser(server, { email: 'sam@members.example', fullName: 'Sam Second' });
    const grant = await admin.client.rpc('admin_set_admin_role', { member_id: second.id, make_admin: true });
    expect(grant.error).toBeNull();
    const again = await admin.client.rpc('admin_set_admin_role', { member_id: second.id, make_admin: true });
    expect(again.error).toBeNull();
    expect(await adminRows(second.id)).toBe(1);
    const seen = await second.client.from('admin_members').select('id').eq('id', member.id);
    expect(seen.data).toEqual([{ id: member.id }]);

    // Two admins now: the first may step down, and then the second is the last.
    const stepDown = await second.client.rpc('admin_set_admin_role', {
      member_id: admin.id,
      make_admin: false,
    });
    expect(stepDown.error).toBeNull();
    const last = await second.client.rpc('admin_set_admin_role', { member_id: second.id, make_admin: false });
    expect(last.error?.message).toBe(LAST_ADMIN);
    const back = await second.client.rpc('admin_set_admin_role', { member_id: admin.id, make_admin: true });
    expect(back.error).toBeNull();

    const audit = await admin.client
      .from('admin_audit_log')
      .select('actor_id, action, target_table')
      .eq('target_table', 'public.user_roles')
      .order('at', { ascending: true });
    expect(audit.data).toEqual(
      expect.arrayContaining([
        { actor_id: admin.id, action: 'INSERT', target_table: 'public.user_roles' },
        { actor_id: second.id, action: 'DELETE', target_table: 'public.user_roles' },
        { actor_id: second.id, action: 'INSERT', target_table: 'public.user_roles' },
      ]),
    );
  });

  it('leaves an admin when two admins revoke each other at the same moment', async () => {
    const a = await signedInUser(server, { email: 'pat@members.example' });
    const b = await signedInUser(server, { email: 'lee@members.example' });
    for (const user of [a, b]) {
      const { error } = await admin.client.rpc('admin_set_admin_role', {
        member_id: user.id,
        make_admin: true,
      });
      expect(error).toBeNull();
    }
    // Ada and Sam step down first, so Pat and Lee are the only admins.
    const sam = (await admin.client.from('admin_members').select('id').eq('email', 'sam@members.example'))
      .data;
    for (const id of [sam?.[0]?.id, admin.id]) {
      const { error } = await a.client.rpc('admin_set_admin_role', { member_id: id, make_admin: false });
      expect(error).toBeNull();
    }
    const results = await Promise.all([
      a.client.rpc('admin_set_admin_role', { member_id: b.id, make_admin: false }),
      b.client.rpc('admin_set_admin_role', { member_id: a.id, make_admin: false }),
    ]);
    const refused = results.filter((result) => result.error);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const result of refused) expect(result.error?.message).toMatch(/last admin role|Unauthorized/);
    expect((await adminRows(a.id)) + (await adminRows(b.id))).toBeGreaterThanOrEqual(1);

    // Hand the dashboard back to Ada for the tests that follow.
    const keeper = (await adminRows(a.id)) > 0 ? a : b;
    const restored = await keeper.client.rpc('admin_set_admin_role', {
      member_id: admin.id,
      make_admin: true,
    });
    expect(restored.error).toBeNull();
  });
});

describe('suspending an account', () => {
  it('ends its sessions, refuses sign-in and refresh until restored, and is audited', async () => {
    const user = await createUser(server, { email: 'riley@members.example' });
    const client = clientFor(server);
    const signedIn = await client.auth.signInWithPassword({ email: user.email, password: PASSWORD });
    expect(signedIn.error).toBeNull();

    const suspend = await admin.client.rpc('admin_set_suspended', { member_id: user.id, suspend: true });
    expect(suspend.error).toBeNull();
    const listed = await admin.client.from('admin_members').select('suspended').eq('id', user.id).single();
    expect(listed.data).toEqual({ suspended: true });

    const refresh = await client.auth.refreshSession();
    expect(refresh.error?.message).toMatch(/Refresh Token|banned/i);
    const again = await clientFor(server).auth.signInWithPassword({ email: user.email, password: PASSWORD });
    expect(again.error?.message).toBe('User is banned');

    // An admin's account is not suspended, nor your own; granting a suspended account is refused.
    const self = await admin.client.rpc('admin_set_suspended', { member_id: admin.id, suspend: true });
    expect(self.error?.message).toBe('You cannot suspend your own account.');
    const grant = await admin.client.rpc('admin_set_admin_role', { member_id: user.id, make_admin: true });
    expect(grant.error?.message).toBe('Restore this account before making it an admin.');

    const restore = await admin.client.rpc('admin_set_suspended', { member_id: user.id, suspend: false });
    expect(restore.error).toBeNull();
    const back = await clientFor(server).auth.signInWithPassword({ email: user.email, password: PASSWORD });
    expect(back.error).toBeNull();

    // The member hears both by mail (a suspended member cannot read their notifications).
    const { rows: mails } = await server.db.query<{ type: string; subject: string }>(
      'select type, subject from private.mail_queue where to_email = $1 order by id',
      [user.email],
    );
    expect(mails).toEqual([
      { type: 'account_suspended', subject: 'Your HighGrade account is suspended' },
      { type: 'account_restored', subject: 'Your HighGrade account is restored' },
    ]);

    const audit = await admin.client
      .from('admin_audit_log')
      .select('actor_id, action, target_table, target_id, before, after')
      .eq('target_id', user.id)
      .order('at', { ascending: true });
    expect(audit.data).toEqual([
      {
        actor_id: admin.id,
        action: 'member.suspend',
        target_table: 'auth.users',
        target_id: user.id,
        before: { suspended: false },
        after: { suspended: true },
      },
      {
        actor_id: admin.id,
        action: 'member.restore',
        target_table: 'auth.users',
        target_id: user.id,
        before: { suspended: true },
        after: { suspended: false },
      },
    ]);
  });

  it('is refused for an admin until their role is revoked', async () => {
    const other = await signedInUser(server, { email: 'morgan@members.example' });
    await admin.client.rpc('admin_set_admin_role', { member_id: other.id, make_admin: true });
    const refused = await admin.client.rpc('admin_set_suspended', { member_id: other.id, suspend: true });
    expect(refused.error?.message).toBe("Revoke this member's admin role before suspending the account.");
    const stillIn = await other.client.auth.refreshSession();
    expect(stillIn.error).toBeNull();
  });
});

describe('granting and revoking access (issue 34, decision 167)', () => {
  it('an admin grants and revokes a subscription and a trial, each audited; a member cannot; bad input changes nothing', async () => {
    const target = await signedInUser(server, { email: 'gia@members.example', fullName: 'Gia Grant' });
    const access = async () => (await target.client.rpc('has_scammer_access')).data;

    // A member may do none of it.
    for (const [fn, args] of [
      ['admin_grant_subscription', { member_id: target.id, months: 1 }],
      ['admin_revoke_subscription', { member_id: target.id }],
      ['admin_set_trial', { member_id: target.id, hours: 48 }],
    ] as const) {
      const refused = await member.client.rpc(fn, args);
      expect(refused.error?.message, fn).toBe('Unauthorized');
    }

    // End the sign-up trial: no access.
    expect((await admin.client.rpc('admin_set_trial', { member_id: target.id, hours: 0 })).error).toBeNull();
    expect(await access()).toBe(false);
    const noTrial = await admin.client.rpc('admin_set_trial', { member_id: target.id, hours: 0 });
    expect(noTrial.error?.message).toBe('This member has no running trial.');

    // Bad input: a clear error, nothing written.
    const tooLong = await admin.client.rpc('admin_grant_subscription', { member_id: target.id, months: 13 });
    expect(tooLong.error?.message).toBe('Grant from 1 to 12 months.');
    const badHours = await admin.client.rpc('admin_set_trial', { member_id: target.id, hours: 721 });
    expect(badHours.error?.message).toBe('A trial runs from 1 to 720 hours (0 ends it now).');
    const nobody = await admin.client.rpc('admin_grant_subscription', {
      member_id: '00000000-0000-4000-8000-000000000000',
      months: 1,
    });
    expect(nobody.error?.message).toBe('Member not found.');
    expect(nobody.status).toBe(404);
    const none = await service.from('scammer_subscriptions').select('user_id').eq('user_id', target.id);
    expect(none.data).toEqual([]);
    const notRunning = await admin.client.rpc('admin_revoke_subscription', { member_id: target.id });
    expect(notRunning.error?.message).toBe('This member has no running subscription.');

    // A trial of 48 hours, then a month's subscription marked as the admin's grant.
    const trial = await admin.client.rpc('admin_set_trial', { member_id: target.id, hours: 48 });
    expect(trial.error).toBeNull();
    expect(new Date(trial.data as string).getTime()).toBeGreaterThan(Date.now() + 47 * 3600_000);
    expect(await access()).toBe(true);
    const granted = await admin.client.rpc('admin_grant_subscription', { member_id: target.id, months: 1 });
    expect(granted.error).toBeNull();
    const row = await service
      .from('scammer_subscriptions')
      .select('status, provider, expires_at')
      .eq('user_id', target.id)
      .single();
    expect(row.data).toMatchObject({ status: 'active', provider: 'admin' });

    // Revoked: access ends now (the trial ended too).
    expect((await admin.client.rpc('admin_set_trial', { member_id: target.id, hours: 0 })).error).toBeNull();
    expect((await admin.client.rpc('admin_revoke_subscription', { member_id: target.id })).error).toBeNull();
    expect(await access()).toBe(false);

    // A card-paid subscription is never ended here.
    await server.db.query(
      `update public.scammer_subscriptions set status = 'active', provider = 'stripe',
         expires_at = now() + interval '1 month' where user_id = $1`,
      [target.id],
    );
    // The log names who acted and whom it is about (decision 167).
    const named = await admin.client
      .from('admin_audit_log')
      .select('actor_name, target_name')
      .eq('target_id', target.id)
      .eq('action', 'trial.grant');
    expect(named.data).toEqual([{ actor_name: 'Ada Admin', target_name: 'Gia Grant' }]);

    const card = await admin.client.rpc('admin_revoke_subscription', { member_id: target.id });
    expect(card.error?.message).toBe(
      'This member pays by card: cancel their subscription in Stripe, not here.',
    );

    const audit = await admin.client
      .from('admin_audit_log')
      .select('actor_id, action, target_table, target_id')
      .eq('target_id', target.id)
      .order('at', { ascending: true });
    expect(audit.data).toEqual(
      expect.arrayContaining([
        { actor_id: admin.id, action: 'trial.end', target_table: 'public.profiles', target_id: target.id },
        { actor_id: admin.id, action: 'trial.grant', target_table: 'public.profiles', target_id: target.id },
        {
          actor_id: admin.id,
          action: 'INSERT',
          target_table: 'public.scammer_subscriptions',
          target_id: target.id,
        },
        {
          actor_id: admin.id,
          action: 'UPDATE',
          target_table: 'public.scammer_subscriptions',
          target_id: target.id,
        },
      ]),
    );
  });
});

describe("the member list's total (decision 252)", () => {
  it('is counted up to 1,000 members and estimated above, near the true number', async () => {
    // Members as the sign-up trigger makes them (a profile each), then the statistics the estimate reads.
    await server.db.query(
      `insert into auth.users (id, email, aud, role, created_at)
       select gen_random_uuid(), 'estimate-probe-' || g || '@members.example', 'authenticated', 'authenticated', now()
       from generate_series(1, 3000) g`,
    );
    await server.db.query('analyze public.profiles');
    const [{ n: members } = { n: 0 }] = (
      await server.db.query<{ n: number }>('select count(*)::int as n from public.profiles')
    ).rows;
    expect(members).toBeGreaterThan(3000);

    const all = await admin.client.from('admin_members').select('id', { count: 'estimated', head: true });
    expect(all.error).toBeNull();
    expect(all.count).toBeGreaterThan(members * 0.9);
    expect(all.count).toBeLessThan(members * 1.1);
    // A search with fewer matches than the count's cap is counted exactly: 12, 120–129 and 1200–1299.
    const some = await admin.client
      .from('admin_member_search')
      .select('id', { count: 'estimated' })
      .textSearch('search_words', memberSearchQuery('estimate-probe-12'), { config: 'simple' })
      .range(0, 24);
    expect(some.error).toBeNull();
    expect(some.count).toBe(111);
    expect(some.data).toHaveLength(25);
    // A member still sees no one, and no number.
    const hidden = await member.client.from('admin_members').select('id', { count: 'estimated', head: true });
    expect(hidden.count).toBe(0);
  }, 120_000);
});

describe("the admins' member search (admin_find_members, decision 280)", () => {
  const ORDERS = {
    newest: 'p.created_at desc nulls last, p.user_id desc',
    oldest: 'p.created_at asc nulls last, p.user_id asc',
    name: 'p.full_name asc nulls last, p.user_id asc',
  } as const;
  type Sort = keyof typeof ORDERS;
  interface Asked {
    q: string;
    sort?: Sort;
    role?: 'admin';
    status?: 'suspended' | 'active';
    page_offset?: number;
  }

  /** The page and total as a direct read (as the superuser) finds them: every word a word's beginning. */
  async function expected(asked: Asked): Promise<{ ids: string[]; total: number }> {
    const conditions = [`w.words @@ to_tsquery('simple', $1)`];
    if (asked.role)
      conditions.push(
        `exists (select 1 from public.user_roles r where r.user_id = p.user_id and r.role = 'admin')`,
      );
    if (asked.status)
      conditions.push(`${asked.status === 'active' ? 'not ' : ''}coalesce(u.banned_until > now(), false)`);
    const { rows } = await server.db.query<{ id: string; total: number }>(
      `select p.user_id as id, count(*) over ()::int as total
       from public.profiles p join private.member_search w on w.user_id = p.user_id
       join auth.users u on u.id = p.user_id
       where ${conditions.join(' and ')}
       order by ${ORDERS[asked.sort ?? 'newest']}`,
      [memberSearchQuery(asked.q)],
    );
    const from = asked.page_offset ?? 0;
    return { ids: rows.slice(from, from + 25).map((row) => row.id), total: rows[0]?.total ?? 0 };
  }

  async function found(asked: Asked, as = admin) {
    const { data, error } = await as.client.rpc('admin_find_members', asked);
    expect(error, JSON.stringify(asked)).toBeNull();
    const answer = data as { members: { id: string; email: string }[]; total: number; approximate: boolean };
    return {
      ids: answer.members.map((row) => row.id),
      total: answer.total,
      approximate: answer.approximate,
      answer,
    };
  }

  beforeAll(async () => {
    // 1,200 members who joined ten years ago under one word, more than the search counts (its cap is
    // 1,000 at these sizes), so they are read as many; and 4,100 who joined since, so that the walk of
    // the newest four times the cap's members finds none of them and the search sorts them instead.
    await server.db.exec(`
      insert into auth.users (id, email, aud, role, created_at)
      select gen_random_uuid(), 'oldtimer-' || g || '@founders.example', 'authenticated', 'authenticated', now()
      from generate_series(1, 1200) g;
      set session_replication_role = replica;
      update public.profiles set created_at = timestamptz '2016-05-01' + make_interval(mins => (substring(email from '[0-9]+'))::int)
      where email like 'oldtimer-%';
      set session_replication_role = origin;
      insert into auth.users (id, email, aud, role, created_at)
      select gen_random_uuid(), 'newcomer-' || g || '@members.example', 'authenticated', 'authenticated', now()
      from generate_series(1, 4100) g;
      update auth.users set banned_until = now() + interval '1 year' where email in ('oldtimer-7@founders.example', 'newcomer-12@members.example');
      analyze public.profiles;
      analyze private.member_search;`);
  }, 120_000);

  it('finds what a direct read finds, in each order, with each filter, page by page', async () => {
    for (const q of [
      'Zephyrine',
      'newcomer-12',
      'oldtimer 7',
      'founders',
      'members example',
      'nobody-at-all',
    ]) {
      for (const sort of Object.keys(ORDERS) as Sort[]) {
        for (const page_offset of [0, 25]) {
          const asked = { q, sort, page_offset };
          const want = await expected(asked);
          const got = await found(asked);
          expect(got.ids, JSON.stringify(asked)).toEqual(want.ids);
          // Counted exactly up to the count's cap (1,000 here), estimated above it.
          if (want.total <= 1000)
            expect({ total: got.total, approximate: got.approximate }).toEqual({
              total: want.total,
              approximate: false,
            });
          else expect(got.approximate).toBe(true);
          if (got.approximate) expect(got.total).toBeGreaterThan(1000);
        }
      }
    }
    for (const asked of [
      { q: 'oldtimer', status: 'suspended' },
      { q: 'oldtimer 7', status: 'active' },
      { q: 'newcomer', status: 'suspended' },
      { q: 'members', status: 'active', sort: 'oldest' },
      { q: 'ada', role: 'admin' },
      { q: 'members', role: 'admin', status: 'active' },
      { q: 'mel', role: 'admin' },
    ] as Asked[]) {
      const want = await expected(asked);
      const got = await found(asked);
      expect(got.ids, JSON.stringify(asked)).toEqual(want.ids);
      if (want.total <= 1000) expect(got.total, JSON.stringify(asked)).toBe(want.total);
    }
    // The rows are the list's, with its counts and access.
    const quinn = await found({ q: 'zeph QZ_GROWER' });
    expect(quinn.answer.members).toEqual([
      expect.objectContaining({
        email: 'quinn@members.example',
        username: 'qz_grower',
        is_admin: false,
        booking_count: 1,
      }),
    ]);
    // A page past the end is empty, with the total; punctuation alone finds no one.
    const past = await found({ q: 'oldtimer 7', page_offset: 500 });
    expect(past).toMatchObject({ ids: [], total: 111, approximate: false });
    expect(await found({ q: "%_' " })).toMatchObject({ ids: [], total: 0, approximate: false });
  }, 120_000);

  it('reads only the matches of a word the statistics price as common, where the view reads every member', async () => {
    // Every member's words hold "zebra" when PostgreSQL counts them, then only the first member's (who
    // joined ten years ago): a word priced as common that one old member has.
    const [{ id: first } = { id: '' }] = (
      await server.db.query<{ id: string }>(
        `select user_id as id from public.profiles where email = 'oldtimer-1@founders.example'`,
      )
    ).rows;
    await server.db.exec(`
      alter table private.member_search set (autovacuum_enabled = false);
      update private.member_search set words = words || 'zebra'::tsvector;
      analyze private.member_search;
      update private.member_search set words = ts_delete(words, 'zebra') where user_id <> '${first}';`);
    try {
      const scope = { role: 'authenticated', claims: { sub: admin.id, role: 'authenticated' } } as const;
      const [{ n: members } = { n: 0 }] = (
        await server.db.query<{ n: number }>('select count(*)::int as n from public.profiles')
      ).rows;
      // The premise: the data API's read of the view, planned from that price, walks the members
      // newest first and reads nearly every one on the way.
      const view = await tableReads<{ id: string }>(
        server,
        'public.profiles',
        scope,
        `select id from public.admin_member_search where search_words @@ to_tsquery('simple', 'zebra')
         order by created_at desc nulls last, id desc limit 25`,
      );
      expect(view.rows.map((row) => row.id)).toEqual([first]);
      expect(view.reads).toBeGreaterThan(members * 0.9);
      // The search walks the newest five pages' worth (decision 263), then counts the one match through
      // the index of the words and reads it: about 125 profiles, not thousands.
      const search = await tableReads<{ page: { members: { id: string }[] } }>(
        server,
        'public.profiles',
        scope,
        `select public.admin_find_members('Zebra') as page`,
      );
      expect(search.rows[0]?.page.members.map((row) => row.id)).toEqual([first]);
      expect(search.reads).toBeGreaterThan(0);
      expect(search.reads).toBeLessThan(5 * 25 + 10);
    } finally {
      await server.db.exec(`
        update private.member_search set words = ts_delete(words, 'zebra');
        alter table private.member_search reset (autovacuum_enabled);
        analyze private.member_search;`);
    }
  }, 120_000);

  it('starts a search for the suspended from the suspensions, however they were set, and reads only those members', async () => {
    const ids = async (emails: string[]) =>
      (
        await server.db.query<{ id: string; email: string }>(
          'select user_id as id, email from public.profiles where email = any($1::text[])',
          [emails],
        )
      ).rows;
    const [byScreen, byApi, lifted, expired] = await ids([
      'newcomer-100@members.example',
      'newcomer-200@members.example',
      'newcomer-300@members.example',
      'newcomer-400@members.example',
    ]).then((rows) =>
      [100, 200, 300, 400].map(
        (n) => rows.find((row) => row.email === `newcomer-${n}@members.example`)?.id ?? '',
      ),
    );
    // The admins' screen, auth's admin API (suspended, then one lifted) and an end already past.
    const suspended = await admin.client.rpc('admin_set_suspended', { member_id: byScreen, suspend: true });
    expect(suspended.error).toBeNull();
    for (const [id, ban_duration] of [
      [byApi, '24h'],
      [lifted, '24h'],
      [lifted, 'none'],
    ] as const) {
      const { error } = await service.auth.admin.updateUserById(id ?? '', { ban_duration });
      expect(error).toBeNull();
    }
    await server.db.query(`update auth.users set banned_until = now() - interval '1 day' where id = $1`, [
      expired,
    ]);
    const bans = await server.db.query<{ id: string; ends: boolean }>(
      `select b.user_id as id, b.banned_until = u.banned_until as ends
       from private.member_bans b join auth.users u on u.id = b.user_id where b.user_id = any($1::uuid[])`,
      [[byScreen, byApi, lifted, expired]],
    );
    expect(new Set(bans.rows.map((row) => row.id))).toEqual(new Set([byScreen, byApi, expired]));
    expect(bans.rows.every((row) => row.ends)).toBe(true);
    // An account made suspended from the start has its row; one made without a suspension has none.
    const made = await Promise.all(
      (['24h', undefined] as const).map(async (ban_duration, n) => {
        const { data, error } = await service.auth.admin.createUser({
          email: `made-${n}@members.example`,
          email_confirm: true,
          ...(ban_duration ? { ban_duration } : {}),
        });
        expect(error).toBeNull();
        return data.user?.id ?? '';
      }),
    );
    const madeBans = await server.db.query<{ id: string; ends: boolean | null }>(
      `select u.id, b.banned_until = u.banned_until as ends
       from auth.users u left join private.member_bans b on b.user_id = u.id where u.id = any($1::uuid[])`,
      [made],
    );
    expect(Object.fromEntries(madeBans.rows.map((row) => [row.id, row.ends]))).toEqual({
      [made[0] ?? '']: true,
      [made[1] ?? '']: null,
    });
    for (const id of made) expect((await service.auth.admin.deleteUser(id)).error).toBeNull();

    for (const asked of [
      { q: 'members example', status: 'suspended' },
      { q: 'newcomer', status: 'suspended', sort: 'oldest' },
      { q: 'newcomer 200', status: 'suspended', sort: 'name' },
      { q: 'newcomer 300', status: 'suspended' },
      { q: 'newcomer 400', status: 'active' },
      { q: 'members', role: 'admin', status: 'suspended' },
    ] as Asked[]) {
      const want = await expected(asked);
      const got = await found(asked);
      expect(got.ids, JSON.stringify(asked)).toEqual(want.ids);
      expect({ total: got.total, approximate: got.approximate }, JSON.stringify(asked)).toEqual({
        total: want.total,
        approximate: false,
      });
    }
    expect((await found({ q: 'members example', status: 'suspended' })).ids).toEqual(
      expect.arrayContaining([byScreen, byApi]),
    );

    // A word 5,000 members hold, filtered to the suspended: only they are read, not every match.
    const scope = { role: 'authenticated', claims: { sub: admin.id, role: 'authenticated' } } as const;
    const search = await tableReads<{ page: { members: { id: string }[]; total: number } }>(
      server,
      'public.profiles',
      scope,
      `select public.admin_find_members('example', status => 'suspended') as page`,
    );
    const want = await expected({ q: 'example', status: 'suspended' });
    expect(want.total).toBeGreaterThanOrEqual(4);
    expect(search.rows[0]?.page.members.map((row) => row.id)).toEqual(want.ids);
    expect(search.rows[0]?.page.total).toBe(want.total);
    expect(search.reads).toBeGreaterThan(0);
    expect(search.reads).toBeLessThan(20);
    // An account's deletion takes its suspension with it.
    const gone = await service.auth.admin.deleteUser(byApi ?? '');
    expect(gone.error).toBeNull();
    const left = await server.db.query('select 1 from private.member_bans where user_id = $1', [byApi]);
    expect(left.rows).toHaveLength(0);
  }, 120_000);

  it('is for admins only, and answers bad input with a clear error at what it concerns', async () => {
    const refused = await member.client.rpc('admin_find_members', { q: 'mel' });
    expect(refused.error?.message).toBe('Only admins can search members.');
    const anonymous = await clientFor(server).rpc('admin_find_members', { q: 'mel' });
    expect(anonymous.error).not.toBeNull();
    expect(anonymous.data).toBeNull();
    for (const [args, message] of [
      [{ q: 'x'.repeat(101) }, 'Search for at most 100 characters.'],
      [{ q: 'mel', sort: 'loudest' }, 'Sort by newest, oldest or name.'],
      [{ q: 'mel', role: 'owner' }, 'Filter by the role admin, or by none.'],
      [{ q: 'mel', status: 'gone' }, 'Filter by the status suspended or active, or by none.'],
      [{ q: 'mel', page_rows: 0 }, 'Ask for 1 to 100 members a page.'],
      [{ q: 'mel', page_offset: -25 }, 'Start a page at 0 to 1000000 members in.'],
    ] as const) {
      const { error } = await admin.client.rpc('admin_find_members', args);
      expect(error?.message, JSON.stringify(args)).toBe(message);
      expect(error?.code).toBe('22023');
    }
  });
});
