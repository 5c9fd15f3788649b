// @databases: both — change capture and RLS filtering happen in the database.
/**
 * postgres_changes through supabase-js, as the web app uses them for live notifications. On the
 * PostgreSQL tier every test runs against TWO servers sharing one database (subscribers on both,
 * rows written by neither), so what is proven is that change capture happens in the database and
 * reaches every server process.
 */
import type { RealtimePostgresChangesPayload } from '@supabase/supabase-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { realtimeDelivery } from '#server/metrics.ts';
import { startTestServer, type TestServer, testDatabase } from '#tests/support/test-server.ts';
import { signToken } from '#tests/support/tokens.ts';
import {
  closeClients,
  eventually,
  insertAccount,
  type Peer,
  type Row,
  realtimeClient,
  startSecondServer,
  subscribed,
  userToken,
  waitFor,
} from './realtime-support.ts';

type Change = RealtimePostgresChangesPayload<Row>;

const postgres = testDatabase() === 'postgres';
let first: TestServer;
let second: Awaited<ReturnType<typeof startSecondServer>> | undefined;
/** Where the second subscriber of each test connects: the other server on PostgreSQL. */
let other: Peer;

beforeAll(async () => {
  first = await startTestServer();
  second = postgres ? await startSecondServer(first) : undefined;
  other = second ?? first;
  // A published table everyone may read: writing a marker row after the rows under test, and waiting
  // for it, proves that nothing else is still on its way (changes arrive in commit order).
  await first.db.exec(`
    create table public.realtime_probe (id bigint generated always as identity primary key, note text not null);
    alter table public.realtime_probe enable row level security;
    create policy "anyone reads" on public.realtime_probe for select to anon, authenticated using (true);
    grant select on public.realtime_probe to anon, authenticated;
    alter publication supabase_realtime add table public.realtime_probe;
  `);
});

afterEach(closeClients);

afterAll(async () => {
  await second?.close();
  await first?.close();
});

async function notify(userId: string, title: string, message = 'body'): Promise<Row> {
  const { rows } = await first.db.query<Row>(
    'insert into public.notifications (user_id, title, message) values ($1, $2, $3) returning *',
    [userId, title, message],
  );
  return rows[0] as Row;
}

async function marker(note: string): Promise<void> {
  await first.db.query('insert into public.realtime_probe (note) values ($1)', [note]);
}

/** A channel with the given notifications bindings plus the probe; collects what each receives. */
async function watch(
  server: Peer,
  token: string | undefined,
  bindings: { event?: '*' | 'INSERT' | 'UPDATE' | 'DELETE'; filter?: string }[],
  name = `watch-${Math.random().toString(36).slice(2)}`,
) {
  const client = await realtimeClient(server, token);
  const received: Change[][] = bindings.map(() => []);
  const probes: string[] = [];
  const system: Row[] = [];
  let channel = client.channel(name);
  bindings.forEach((binding, index) => {
    channel = channel.on(
      'postgres_changes' as never,
      {
        event: binding.event ?? '*',
        schema: 'public',
        table: 'notifications',
        filter: binding.filter,
      } as never,
      (payload: Change) => received[index]?.push(payload),
    );
  });
  channel = channel
    .on(
      'postgres_changes' as never,
      { event: 'INSERT', schema: 'public', table: 'realtime_probe' } as never,
      (payload: Change) => probes.push((payload.new as Row).note),
    )
    .on('system', {}, (payload: Row) => system.push(payload));
  const status = await subscribed(channel);
  expect(status).toEqual({ status: 'SUBSCRIBED' });
  await waitFor(() => system.find((message) => message.extension === 'postgres_changes'), {
    what: 'the subscription',
  });
  return {
    client,
    channel,
    received,
    probes,
    system,
    /** Waits until the probe row `note` arrived: every change committed before it has arrived too. */
    async settled(note: string) {
      await waitFor(() => probes.includes(note), { what: `probe ${note}` });
    },
  };
}

describe('notifications published for postgres_changes', () => {
  it('are published by the product migration and captured by a trigger', async () => {
    const { rows } = await first.db.query(
      `select tablename from pg_publication_tables where pubname = 'supabase_realtime' and schemaname = 'public'
       order by 1`,
    );
    // Pass or Gas tallies reach open pages by broadcast instead (decision 156).
    expect(rows).toEqual([{ tablename: 'notifications' }, { tablename: 'realtime_probe' }]);
    const triggers = await first.db.query(
      `select tgrelid::regclass::text as table from pg_trigger where tgname = 'realtime_capture' order by 1`,
    );
    expect(triggers.rows).toEqual([{ table: 'notifications' }, { table: 'realtime_probe' }]);
  });

  it('follow the publication: tables added get the capture trigger, tables removed lose it', async () => {
    const triggers = async () =>
      (
        await first.db.query<{ table: string }>(
          `select tgrelid::regclass::text as table from pg_trigger where tgname = 'realtime_capture' order by 1`,
        )
      ).rows.map((row) => row.table);
    await first.db.exec('create table public.realtime_extra (id int primary key)');
    try {
      await first.db.exec('alter publication supabase_realtime add table public.realtime_extra');
      expect(await triggers()).toContain('realtime_extra');
      await first.db.exec('alter publication supabase_realtime drop table public.realtime_extra');
      expect(await triggers()).not.toContain('realtime_extra');
    } finally {
      await first.db.exec('drop table public.realtime_extra');
    }
  });

  it('capture rows written through the API roles, under row-level security', async () => {
    const admin = await insertAccount(first.db, `writer-${Date.now()}@example.com`);
    const reader = await insertAccount(first.db, `reader-${Date.now()}@example.com`);
    await first.db.query(`insert into public.user_roles (user_id, role) values ($1, 'admin')`, [admin]);
    const readerSees = await watch(other, await userToken(other, reader), [{ event: 'INSERT' }]);
    await first.db.withScope({ role: 'authenticated', claims: { sub: admin, role: 'authenticated' } }, (tx) =>
      tx.query(
        `insert into public.notifications (user_id, title, message) values ($1, 'From an admin', 'hi')`,
        [reader],
      ),
    );
    await marker('api-write');
    await readerSees.settled('api-write');
    expect(readerSees.received[0]?.map((change) => (change.new as Row).title)).toEqual(['From an admin']);
  });

  it('reach their owner within a second and never anyone else, even one asking for the owner’s filter', async () => {
    const alice = await insertAccount(first.db, `alice-${Date.now()}@example.com`);
    const bob = await insertAccount(first.db, `bob-${Date.now()}@example.com`);
    const aliceSees = await watch(first, await userToken(first, alice), [
      { event: 'INSERT', filter: `user_id=eq.${alice}` },
    ]);
    // Bob asks for Alice's rows (on the other server), and for everything.
    const bobSees = await watch(other, await userToken(other, bob), [
      { event: 'INSERT', filter: `user_id=eq.${alice}` },
      { event: '*' },
    ]);
    // A visitor without a session asks for everything.
    const visitorSees = await watch(other, undefined, [{ event: '*' }]);

    const forAlice = await notify(alice, 'For Alice', 'Your report was published');
    // The requirement: her new row reaches her within a second of its commit.
    await waitFor(() => aliceSees.received[0]?.length, { timeout: 1000, what: 'Alice’s notification' });
    const forBob = await notify(bob, 'For Bob');
    await marker('after-both');
    await Promise.all([
      aliceSees.settled('after-both'),
      bobSees.settled('after-both'),
      visitorSees.settled('after-both'),
    ]);

    const [insert] = aliceSees.received[0] as Change[];
    expect(insert).toMatchObject({
      schema: 'public',
      table: 'notifications',
      eventType: 'INSERT',
      new: {
        id: forAlice.id,
        user_id: alice,
        title: 'For Alice',
        message: 'Your report was published',
        is_read: false,
      },
      old: {},
      errors: null,
    });
    expect(insert?.commit_timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(aliceSees.received[0]).toHaveLength(1);
    expect(bobSees.received[0]).toEqual([]);
    expect((bobSees.received[1] as Change[]).map((change) => (change.new as Row).id)).toEqual([forBob.id]);
    expect(visitorSees.received[0]).toEqual([]);
  });

  it('show an admin every user’s rows (the policy decides, not the server)', async () => {
    const admin = await insertAccount(first.db, `admin-${Date.now()}@example.com`);
    const carol = await insertAccount(first.db, `carol-${Date.now()}@example.com`);
    await first.db.query(`insert into public.user_roles (user_id, role) values ($1, 'admin')`, [admin]);
    const adminSees = await watch(other, await userToken(other, admin), [{ event: 'INSERT' }]);
    const row = await notify(carol, 'For Carol');
    await marker('admin-saw');
    await adminSees.settled('admin-saw');
    expect((adminSees.received[0] as Change[]).map((change) => (change.new as Row).id)).toContain(row.id);
  });

  it('carry UPDATE and DELETE as Supabase does: the key as old record, the full old row with replica identity full', async () => {
    const dana = await insertAccount(first.db, `dana-${Date.now()}@example.com`);
    const danaSees = await watch(first, await userToken(first, dana), [
      { event: 'UPDATE', filter: `user_id=eq.${dana}` },
      { event: 'DELETE', filter: `user_id=eq.${dana}` },
    ]);
    const row = await notify(dana, 'Read me');
    // Row-level security is checked against the row as it is when the change is processed (as
    // Supabase's walrus does), so each update is awaited before the row is deleted.
    await first.db.query('update public.notifications set is_read = true where id = $1', [row.id]);
    await waitFor(() => danaSees.received[0]?.length === 1);
    await first.db.exec('alter table public.notifications replica identity full');
    try {
      await first.db.query('update public.notifications set is_read = false where id = $1', [row.id]);
    } finally {
      await first.db.exec('alter table public.notifications replica identity default');
    }
    await waitFor(() => danaSees.received[0]?.length === 2);
    await first.db.query('delete from public.notifications where id = $1', [row.id]);
    await marker('updated-deleted');
    await danaSees.settled('updated-deleted');

    const [update, updateFull] = danaSees.received[0] as Change[];
    expect(update).toMatchObject({
      eventType: 'UPDATE',
      new: { id: row.id, is_read: true },
      old: { id: row.id },
    });
    expect(Object.keys(update?.old ?? {})).toEqual(['id']);
    expect(updateFull).toMatchObject({
      eventType: 'UPDATE',
      new: { id: row.id, is_read: false },
      old: { id: row.id, is_read: true, title: 'Read me', user_id: dana },
    });
    // Row-level security cannot be checked on a deleted row: only its primary key is sent.
    expect(danaSees.received[1]).toEqual([
      expect.objectContaining({ eventType: 'DELETE', new: {}, old: { id: row.id } }),
    ]);
  });

  it('judge each change by the version of the row it carries: a row given to someone else is not leaked', async () => {
    const kim = await insertAccount(first.db, `kim-${Date.now()}@example.com`);
    const lee = await insertAccount(first.db, `lee-${Date.now()}@example.com`);
    const kimSees = await watch(first, await userToken(first, kim), [{ event: '*' }]);
    const leeSees = await watch(other, await userToken(other, lee), [{ event: '*' }]);
    // Written for Kim and handed to Lee in the same transaction: both changes are processed after it.
    const id = await first.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ id: string }>(
        `insert into public.notifications (user_id, title, message) values ($1, 'Kim only', 'secret') returning id`,
        [kim],
      );
      await tx.query(`update public.notifications set user_id = $2, title = 'For Lee' where id = $1`, [
        rows[0]?.id,
        lee,
      ]);
      return rows[0]?.id;
    });
    await marker('handed-over');
    await Promise.all([kimSees.settled('handed-over'), leeSees.settled('handed-over')]);
    // Lee sees the row only in the version that is his; the insert, which was Kim's, reaches no one.
    expect(leeSees.received[0]?.map((change) => [change.eventType, (change.new as Row).title])).toEqual([
      ['UPDATE', 'For Lee'],
    ]);
    expect(kimSees.received[0]).toEqual([]);
    expect(id).toBeTruthy();
  });

  it('apply every filter operator on the server, with the column’s own type', async () => {
    const erin = await insertAccount(first.db, `erin-${Date.now()}@example.com`);
    const token = await userToken(first, erin);
    const filters = [
      'title=eq.b',
      'title=neq.b',
      'title=lt.b',
      'title=lte.b',
      'title=gt.b',
      'title=gte.b',
      'title=in.(a,"c, d")',
      'is_read=eq.false',
      `user_id=eq.${erin.toUpperCase()}`,
      'title=gte.b,title=lt.c',
    ];
    const erinSees = await watch(
      other,
      token,
      filters.map((filter) => ({ event: 'INSERT' as const, filter })),
    );
    for (const title of ['a', 'b', 'c, d', 'e']) await notify(erin, title);
    await marker('filtered');
    await erinSees.settled('filtered');
    const titles = erinSees.received.map((changes) => changes.map((change) => (change.new as Row).title));
    expect(Object.fromEntries(filters.map((filter, index) => [filter, titles[index]]))).toEqual({
      'title=eq.b': ['b'],
      'title=neq.b': ['a', 'c, d', 'e'],
      'title=lt.b': ['a'],
      'title=lte.b': ['a', 'b'],
      'title=gt.b': ['c, d', 'e'],
      'title=gte.b': ['b', 'c, d', 'e'],
      'title=in.(a,"c, d")': ['a', 'c, d'],
      'is_read=eq.false': ['a', 'b', 'c, d', 'e'],
      [`user_id=eq.${erin.toUpperCase()}`]: ['a', 'b', 'c, d', 'e'],
      'title=gte.b,title=lt.c': ['b'],
    });
  });

  it('report bindings that cannot be subscribed with a system message, keeping the channel', async () => {
    const client = await realtimeClient(first);
    const system: Row[] = [];
    const channel = client
      .channel('bad-bindings')
      .on(
        'postgres_changes' as never,
        { event: '*', schema: 'public', table: 'notifications', filter: 'nope=eq.1' } as never,
        () => {},
      )
      .on('system', {}, (payload: Row) => system.push(payload));
    expect(await subscribed(channel)).toEqual({ status: 'SUBSCRIBED' });
    const error = await waitFor(() => system.find((message) => message.extension === 'postgres_changes'));
    expect(error).toMatchObject({ status: 'error', channel: 'bad-bindings' });
    expect(error.message).toContain('invalid column for filter nope');

    for (const [binding, expected] of [
      [
        { table: 'notifications', filter: 'user_id=eq.not-a-uuid' },
        'invalid value for filter user_id (uuid)',
      ],
      [{ table: 'user_roles' }, 'Please check Realtime is enabled for the given connect parameters'],
      [{ table: 'notifications', filter: 'user_id=like.x' }, 'Error parsing `filter` params: ["like","x"]'],
    ] as const) {
      const messages: Row[] = [];
      const bad = client
        .channel(`bad-${Math.random()}`)
        .on('postgres_changes' as never, { event: '*', schema: 'public', ...binding } as never, () => {})
        .on('system', {}, (payload: Row) => messages.push(payload));
      expect(await subscribed(bad)).toEqual({ status: 'SUBSCRIBED' });
      const message = await waitFor(() => messages.find((m) => m.extension === 'postgres_changes'));
      expect(message.status).toBe('error');
      expect(message.message).toContain(expected);
    }
    // Nothing was recorded for the failed bindings.
    const { rows } = await first.db.query(
      `select count(*)::int as n from realtime.subscriptions where filters::text like '%not-a-uuid%'`,
    );
    expect(rows).toEqual([{ n: 0 }]);
  });
});

describe('the sequence of changes', () => {
  it('delivers 1,000 inserts exactly once and in commit order, on every server, and never rolled-back rows', async () => {
    const frank = await insertAccount(first.db, `frank-${Date.now()}@example.com`);
    const token = await userToken(first, frank);
    const here = await watch(first, token, [{ event: 'INSERT', filter: `user_id=eq.${frank}` }]);
    const there = await watch(other, token, [{ event: 'INSERT', filter: `user_id=eq.${frank}` }]);

    // Single-row transactions, multi-row transactions and rolled-back transactions, interleaved.
    let next = 0;
    const expected: string[] = [];
    while (next < 1000) {
      if (next % 97 === 13) {
        await first.db
          .transaction(async (tx) => {
            await tx.query(
              `insert into public.notifications (user_id, title, message) values ($1, 'rolled back', 'x')`,
              [frank],
            );
            throw new Error('roll back');
          })
          .catch(() => {});
      }
      if (next % 10 === 0) {
        const titles = Array.from({ length: Math.min(5, 1000 - next) }, (_, index) => `n${next + index}`);
        await first.db.transaction(async (tx) => {
          for (const title of titles) {
            await tx.query(
              `insert into public.notifications (user_id, title, message) values ($1, $2, 'x')`,
              [frank, title],
            );
          }
        });
        expected.push(...titles);
        next += titles.length;
      } else {
        await notify(frank, `n${next}`);
        expected.push(`n${next}`);
        next += 1;
      }
    }
    await marker('sequence-done');
    await Promise.all([here.settled('sequence-done'), there.settled('sequence-done')]);
    for (const seen of [here, there]) {
      const titles = (seen.received[0] as Change[]).map((change) => (change.new as Row).title);
      expect(titles).toHaveLength(1000);
      expect(titles).toEqual(expected);
    }
  });

  it('keeps commit order when several connections write at once', async () => {
    const gina = await insertAccount(first.db, `gina-${Date.now()}@example.com`);
    const token = await userToken(first, gina);
    const here = await watch(first, token, [{ event: 'INSERT', filter: `user_id=eq.${gina}` }]);
    const there = await watch(other, token, [{ event: 'INSERT', filter: `user_id=eq.${gina}` }]);
    const writers = 4;
    const perWriter = 50;
    await Promise.all(
      Array.from({ length: writers }, async (_, writer) => {
        for (let i = 0; i < perWriter; i++) {
          await first.db.transaction(async (tx) => {
            await tx.query(
              `insert into public.notifications (user_id, title, message) values ($1, $2, 'x')`,
              [gina, `w${writer}-${i}`],
            );
            if (i % 7 === 3) await tx.query('select pg_sleep(0.002)');
          });
        }
      }),
    );
    await marker('concurrent-done');
    await Promise.all([here.settled('concurrent-done'), there.settled('concurrent-done')]);
    // The order the rows were committed in, as the database recorded it.
    const { rows } = await first.db.query<{ title: string }>(
      `select record ->> 'title' as title from realtime.changes
       where entity = 'public.notifications'::regclass and record ->> 'user_id' = $1 order by id`,
      [gina],
    );
    const hereTitles = (here.received[0] as Change[]).map((change) => (change.new as Row).title);
    const thereTitles = (there.received[0] as Change[]).map((change) => (change.new as Row).title);
    expect(hereTitles).toHaveLength(writers * perWriter);
    expect(new Set(hereTitles).size).toBe(writers * perWriter);
    expect(thereTitles).toEqual(hereTitles);
    if (rows.length === writers * perWriter) expect(hereTitles).toEqual(rows.map((row) => row.title));
    for (let writer = 0; writer < writers; writer++) {
      const mine = hereTitles.filter((title) => title.startsWith(`w${writer}-`));
      expect(mine).toEqual(Array.from({ length: perWriter }, (_, i) => `w${writer}-${i}`));
    }
  });
});

describe('the time a change takes to reach subscribers', () => {
  it('is measured from its commit for /metrics (highgrade_realtime_delivery_seconds)', async () => {
    const read = async () => {
      const values = (await realtimeDelivery.get()).values;
      const of = (suffix: string) => values.find((value) => value.metricName?.endsWith(suffix))?.value ?? 0;
      return { count: of('_count'), sum: of('_sum') };
    };
    const before = await read();
    const watcher = await watch(first, undefined, []);
    await marker('timed');
    await watcher.settled('timed');
    const after = await read();
    expect(after.count).toBeGreaterThan(before.count);
    // What was observed meanwhile is a real delay: after the commit, and not minutes after.
    const seconds = (after.sum - before.sum) / (after.count - before.count);
    expect(seconds).toBeGreaterThanOrEqual(0);
    expect(seconds).toBeLessThan(60);
  });
});

describe('the identity of a subscriber', () => {
  it('follows access_token updates (setAuth) and is checked for every change', async () => {
    const hank = await insertAccount(first.db, `hank-${Date.now()}@example.com`);
    const ivy = await insertAccount(first.db, `ivy-${Date.now()}@example.com`);
    const seen = await watch(other, await userToken(other, hank), [{ event: 'INSERT' }]);
    await notify(hank, 'hank-1');
    await notify(ivy, 'ivy-1');
    await marker('as-hank');
    await seen.settled('as-hank');
    await seen.client.realtime.setAuth(await userToken(other, ivy));
    // The token update travels on the socket; it has been applied once the database shows it.
    await eventually(async () => {
      const { rows } = await first.db.query(
        `select count(*)::int as n from realtime.subscriptions where claims ->> 'sub' = $1`,
        [ivy],
      );
      expect(rows).toEqual([{ n: 2 }]);
    });
    await notify(hank, 'hank-2');
    await notify(ivy, 'ivy-2');
    await marker('as-ivy');
    await seen.settled('as-ivy');
    expect((seen.received[0] as Change[]).map((change) => (change.new as Row).title)).toEqual([
      'hank-1',
      'ivy-2',
    ]);
  });

  it('closes a channel whose token expires, with a system message, and forgets its subscriptions', async () => {
    const jo = await insertAccount(first.db, `jo-${Date.now()}@example.com`);
    const token = await signToken(first.jwtSecret, { sub: jo, role: 'authenticated' }, { expiresIn: 2 });
    const client = await realtimeClient(other, token);
    const system: Row[] = [];
    const statuses: string[] = [];
    const channel = client
      .channel('expiring')
      .on(
        'postgres_changes' as never,
        { event: '*', schema: 'public', table: 'notifications' } as never,
        () => {},
      )
      .on('system', {}, (payload: Row) => system.push(payload));
    channel.subscribe((status) => statuses.push(status));
    await waitFor(() => statuses.includes('SUBSCRIBED'));
    const before = await first.db.query<{ n: number }>(
      `select count(*)::int as n from realtime.subscriptions where claims ->> 'sub' = $1`,
      [jo],
    );
    expect(before.rows).toEqual([{ n: 1 }]);
    const expired = await waitFor(() => system.find((message) => message.extension === 'system'), {
      timeout: 6000,
    });
    expect(expired).toMatchObject({ status: 'error', channel: 'expiring' });
    expect(expired.message).toMatch(/^Token has expired \d+ seconds ago$/);
    await waitFor(() => statuses.includes('CLOSED'));
    await eventually(async () => {
      const { rows } = await first.db.query(
        `select count(*)::int as n from realtime.subscriptions where claims ->> 'sub' = $1`,
        [jo],
      );
      expect(rows).toEqual([{ n: 0 }]);
    });
  });
});

describe('the row-level security check of changes', () => {
  /** Subscribes to INSERTs of `table` (and the probe); collects the `note` of each row received. */
  async function watchTable(server: Peer, token: string, table: string) {
    const client = await realtimeClient(server, token);
    const notes: string[] = [];
    const probes: string[] = [];
    const system: Row[] = [];
    const channel = client
      .channel(`guarded-${Math.random().toString(36).slice(2)}`)
      .on(
        'postgres_changes' as never,
        { event: 'INSERT', schema: 'public', table } as never,
        (payload: Change) => notes.push((payload.new as Row).note),
      )
      .on(
        'postgres_changes' as never,
        { event: 'INSERT', schema: 'public', table: 'realtime_probe' } as never,
        (payload: Change) => probes.push((payload.new as Row).note),
      )
      .on('system', {}, (payload: Row) => system.push(payload));
    expect(await subscribed(channel)).toEqual({ status: 'SUBSCRIBED' });
    await waitFor(() => system.find((message) => message.extension === 'postgres_changes'));
    return {
      notes,
      settled: (note: string) => waitFor(() => probes.includes(note), { what: `probe ${note}` }),
    };
  }

  it('hides the rows from a subscriber whose policy check fails, and only from that one', async () => {
    const mia = await insertAccount(first.db, `mia-${Date.now()}@example.com`);
    const ned = await insertAccount(first.db, `ned-${Date.now()}@example.com`);
    await first.db.exec(`
      create function public.realtime_boom() returns boolean language plpgsql volatile
        as $$ begin raise exception 'policy failure'; end $$;
      create table public.realtime_guarded (id bigint generated always as identity primary key, note text not null);
      alter table public.realtime_guarded enable row level security;
      create policy "fails for mia" on public.realtime_guarded for select to authenticated
        using (auth.uid() <> '${mia}'::uuid or public.realtime_boom());
      grant select on public.realtime_guarded to authenticated;
      alter publication supabase_realtime add table public.realtime_guarded;
    `);
    const miaSees = await watchTable(first, await userToken(first, mia), 'realtime_guarded');
    const nedSees = await watchTable(other, await userToken(other, ned), 'realtime_guarded');
    await first.db.query(`insert into public.realtime_guarded (note) values ('one'), ('two')`);
    await marker('guarded');
    await Promise.all([miaSees.settled('guarded'), nedSees.settled('guarded')]);
    expect(nedSees.notes).toEqual(['one', 'two']);
    expect(miaSees.notes).toEqual([]);
  });

  it('judges each change by its own table’s policies when one binding covers a whole schema', async () => {
    const pia = await insertAccount(first.db, `pia-${Date.now()}@example.com`);
    const quinn = await insertAccount(first.db, `quinn-${Date.now()}@example.com`);
    // A table without row-level security beside notifications (owner only): one identity, two tables.
    await first.db.exec(`
      create table public.realtime_open (id bigint generated always as identity primary key, note text not null);
      grant select on public.realtime_open to authenticated;
      alter publication supabase_realtime add table public.realtime_open;
    `);
    const client = await realtimeClient(other, await userToken(other, quinn));
    const received: string[] = [];
    const system: Row[] = [];
    const channel = client
      .channel('whole-schema')
      .on('postgres_changes' as never, { event: 'INSERT', schema: 'public' } as never, (payload: Change) => {
        const row = payload.new as Row;
        received.push(`${payload.table}:${row.title ?? row.note}`);
      })
      .on('system', {}, (payload: Row) => system.push(payload));
    expect(await subscribed(channel)).toEqual({ status: 'SUBSCRIBED' });
    await waitFor(() => system.find((message) => message.extension === 'postgres_changes'));
    // One transaction, so the changes of both tables (with keys of different types) share a batch.
    await first.db.transaction(async (tx) => {
      await tx.query(
        `insert into public.notifications (user_id, title, message) values ($1, 'for pia', 'x')`,
        [pia],
      );
      await tx.query(
        `insert into public.notifications (user_id, title, message) values ($1, 'for quinn', 'x')`,
        [quinn],
      );
      await tx.query(`insert into public.realtime_open (note) values ('open to all')`);
      await tx.query(`insert into public.realtime_probe (note) values ('probe in batch')`);
    });
    await marker('whole-schema');
    await waitFor(() => received.includes('realtime_probe:whole-schema'), { what: 'the marker' });
    expect(received.sort()).toEqual(
      [
        'notifications:for quinn',
        'realtime_open:open to all',
        'realtime_probe:probe in batch',
        'realtime_probe:whole-schema',
      ].sort(),
    );
  });

  it('judges each subscriber by its own claims when a policy calls an IMMUTABLE function that reads them', async () => {
    const ray = await insertAccount(first.db, `ray-${Date.now()}@example.com`);
    const sam = await insertAccount(first.db, `sam-${Date.now()}@example.com`);
    // Wrongly marked IMMUTABLE (it reads the request's claims): PostgreSQL may evaluate it once, when
    // planning, so a plan kept from one subscriber to the next would answer for the wrong one.
    await first.db.exec(`
      create function public.realtime_claimed_sub() returns uuid language sql immutable
        as $$ select nullif(current_setting('request.jwt.claims', true)::jsonb ->> 'sub', '')::uuid $$;
      create table public.realtime_owned (id bigint generated always as identity primary key, owner uuid not null, note text not null);
      alter table public.realtime_owned enable row level security;
      create policy "own rows" on public.realtime_owned for select to authenticated
        using (owner = public.realtime_claimed_sub());
      grant select on public.realtime_owned to authenticated;
      alter publication supabase_realtime add table public.realtime_owned;
    `);
    const raySees = await watchTable(first, await userToken(first, ray), 'realtime_owned');
    const samSees = await watchTable(other, await userToken(other, sam), 'realtime_owned');
    for (let i = 1; i <= 8; i++) {
      await first.db.query(`insert into public.realtime_owned (owner, note) values ($1, $2), ($3, $4)`, [
        ray,
        `ray-${i}`,
        sam,
        `sam-${i}`,
      ]);
    }
    await marker('owned');
    await Promise.all([raySees.settled('owned'), samSees.settled('owned')]);
    expect(raySees.notes).toEqual(Array.from({ length: 8 }, (_, i) => `ray-${i + 1}`));
    expect(samSees.notes).toEqual(Array.from({ length: 8 }, (_, i) => `sam-${i + 1}`));
  });

  it('follows a changed policy from the next change on', async () => {
    const oli = await insertAccount(first.db, `oli-${Date.now()}@example.com`);
    await first.db.exec(`
      create table public.realtime_gated (id bigint generated always as identity primary key, note text not null);
      alter table public.realtime_gated enable row level security;
      create policy "gate" on public.realtime_gated for select to authenticated using (note like 'open%');
      grant select on public.realtime_gated to authenticated;
      alter publication supabase_realtime add table public.realtime_gated;
    `);
    const oliSees = await watchTable(other, await userToken(other, oli), 'realtime_gated');
    // Several batches under the first policy, so the check's plan is cached when the policy changes.
    for (let i = 1; i <= 6; i++) {
      await first.db.query(`insert into public.realtime_gated (note) values ($1), ($2)`, [
        `open-${i}`,
        `shut-${i}`,
      ]);
    }
    await marker('gate-before');
    await oliSees.settled('gate-before');
    await first.db.exec(`alter policy "gate" on public.realtime_gated using (note like 'shut%')`);
    await first.db.query(`insert into public.realtime_gated (note) values ('open-7'), ('shut-7')`);
    await marker('gate-after');
    await oliSees.settled('gate-after');
    expect(oliSees.notes).toEqual(['open-1', 'open-2', 'open-3', 'open-4', 'open-5', 'open-6', 'shut-7']);
  });
});
