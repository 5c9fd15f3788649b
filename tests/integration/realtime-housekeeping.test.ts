// @databases: both — cleanup is SQL and differs by database (PGlite has no autovacuum).
/**
 * What the realtime heartbeat keeps tidy: delivered changes are forgotten, processes that stopped
 * beating are removed with their subscriptions and presences (whose leaves are announced), and the
 * embedded database reclaims the space (PGlite has no autovacuum).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, testDatabase } from '#tests/support/test-server.ts';
import {
  closeClients,
  eventually,
  insertAccount,
  realtimeClient,
  subscribed,
  userToken,
  waitFor,
} from './realtime-support.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ REALTIME_HEARTBEAT_INTERVAL_MS: '100' });
});
afterEach(closeClients);
afterAll(async () => {
  await server?.close();
});

describe('the realtime heartbeat', () => {
  it('forgets changes once they are delivered', async () => {
    const user = await insertAccount(server.db, `tidy-${Date.now()}@example.com`);
    const received: unknown[] = [];
    const channel = (await realtimeClient(server, await userToken(server, user)))
      .channel('tidy')
      .on(
        'postgres_changes' as never,
        { event: 'INSERT', schema: 'public', table: 'notifications', filter: `user_id=eq.${user}` } as never,
        (payload: unknown) => received.push(payload),
      );
    expect(await subscribed(channel)).toEqual({ status: 'SUBSCRIBED' });
    for (let i = 0; i < 20; i++) {
      await server.db.query(
        `insert into public.notifications (user_id, title, message) values ($1, $2, 'x')`,
        [user, `tidy ${i}`],
      );
    }
    await waitFor(() => received.length === 20);
    await eventually(async () => {
      const { rows } = await server.db.query('select count(*)::int as n from realtime.changes');
      expect(rows).toEqual([{ n: 0 }]);
    });
  });

  it('drops broadcasts from the database after a minute, but keeps private ones for replay until their retention ends', async () => {
    const topic = `tidy-${Date.now()}`;
    const insert = (kind: string, isPrivate: boolean, age: string) =>
      server.db.query(
        `insert into realtime.messages (topic, extension, event, payload, private, inserted_at)
         values ($1, 'broadcast', 'note', jsonb_build_object('kind', $2::text), $3,
                 (now() - $4::interval)::timestamp)`,
        [topic, kind, isPrivate, age],
      );
    await insert('public, two minutes', false, '2 minutes');
    await insert('private, two minutes', true, '2 minutes');
    await insert('private, two days', true, '2 days');
    await insert('private, four days', true, '4 days');
    await insert('public, just now', false, '0 seconds');
    await eventually(async () => {
      const { rows } = await server.db.query<{ kind: string }>(
        `select payload ->> 'kind' as kind from realtime.messages where topic = $1 order by inserted_at`,
        [topic],
      );
      // The default retention is 72 hours, as on Supabase (REALTIME_REPLAY_RETENTION_HOURS).
      expect(rows.map((row) => row.kind)).toEqual([
        'private, two days',
        'private, two minutes',
        'public, just now',
      ]);
    });
  });

  it('removes a process that stopped beating, with its subscriptions and presences', async () => {
    const watcher = (await realtimeClient(server)).channel('hall', {
      config: { presence: { key: 'watcher' } },
    });
    watcher.on('presence', { event: 'sync' }, () => {});
    await subscribed(watcher);
    const ghost = crypto.randomUUID();
    // In one transaction: the heartbeat may remove the ghost at any moment.
    await server.db.transaction(async (tx) => {
      await tx.query(
        `insert into realtime.nodes (id, cursor, heartbeat_at) values ($1, 0, now() - interval '1 hour')`,
        [ghost],
      );
      await tx.query(
        `insert into realtime.presences (ref, node_id, topic, key, meta) values ('ghost-ref', $1, 'public:hall', 'ghost', '{}')`,
        [ghost],
      );
      await tx.query(
        `insert into realtime.subscriptions (id, entity, node_id, action, claims, claims_role)
         values (gen_random_uuid(), 'public.notifications'::regclass, $1, '*', '{}', 'anon')`,
        [ghost],
      );
    });
    // A client joining now sees the ghost (its row is there) until the heartbeat removes it.
    const late = (await realtimeClient(server)).channel('hall');
    late.on('presence', { event: 'sync' }, () => {});
    await subscribed(late);
    await eventually(async () => {
      const { rows } = await server.db.query(
        `select (select count(*)::int from realtime.nodes where id = $1) as nodes,
                (select count(*)::int from realtime.presences where node_id = $1) as presences,
                (select count(*)::int from realtime.subscriptions where node_id = $1) as subscriptions`,
        [ghost],
      );
      expect(rows).toEqual([{ nodes: 0, presences: 0, subscriptions: 0 }]);
    });
    await waitFor(() => late.presenceState().ghost === undefined);
  });

  it.runIf(testDatabase() === 'pglite')('vacuums the realtime tables of the embedded database', async () => {
    await eventually(async () => {
      const { rows } = await server.db.query(
        `select count(*)::int as n from pg_stat_user_tables
         where schemaname = 'realtime' and relname = 'changes' and last_vacuum is not null`,
      );
      expect(rows).toEqual([{ n: 1 }]);
    }, 10_000);
  });
});
