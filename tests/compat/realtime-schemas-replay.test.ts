// @databases: both — changes are captured and filtered by RLS in the database; replay reads realtime.messages.
/**
 * Two Supabase Realtime capabilities through the oldest supabase-js supported (2.109) and the one the app
 * ships (issue 37, decision 234):
 * - postgres_changes of tables in any schema of the `supabase_realtime` publication, not only `public`
 *   (a schema exposed to the data API here, `inventory`), with grants and row-level security deciding
 *   what each subscriber gets, as in `public`; `schema: 'inventory'` without a table covers them all;
 * - broadcast replay (`config.broadcast.replay: { since, limit }`) on private channels: the broadcasts
 *   stored in realtime.messages for the topic since `since` (ms), oldest first, at most `limit` (1–25,
 *   Supabase's hard limit), each with `meta.replayed: true`, then live ones, none twice; refused on a
 *   public channel and to an identity that may not read broadcasts, with Supabase's reasons.
 */
import { createClient as createApp, type SupabaseClient } from '@supabase/supabase-js';
import { createClient as createOldest } from 'supabase-js-oldest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type ServerProcess, startServerProcess } from '#tests/support/server-process.ts';
import { createUser } from '#tests/support/users.ts';

type Row = Record<string, unknown>;
type Channel = ReturnType<SupabaseClient['channel']>;

let server: ServerProcess;
const clients: SupabaseClient[] = [];

const SQL = `
  create schema inventory;
  grant usage on schema inventory to anon, authenticated, service_role;
  -- members see their own stock rows only
  create table inventory.stock (
    id bigint generated always as identity primary key,
    sku text not null,
    owner uuid not null default auth.uid()
  );
  grant select, insert, update, delete on inventory.stock to authenticated, service_role;
  alter table inventory.stock enable row level security;
  create policy stock_read on inventory.stock for select to authenticated using (owner = (select auth.uid()));
  create policy stock_write on inventory.stock for insert to authenticated with check (owner = (select auth.uid()));
  -- everyone reads shelves
  create table inventory.shelves (id int primary key, label text not null);
  grant select on inventory.shelves to anon, authenticated;
  grant all on inventory.shelves to service_role;
  -- a table of the schema outside the publication
  create table inventory.ledger (id int primary key);
  grant select on inventory.ledger to anon, authenticated;
  alter publication supabase_realtime add table inventory.stock, inventory.shelves;

  -- private channels: members read broadcasts of 'replay:' topics; 'sealed:' topics nobody reads
  create policy "replay: members read broadcasts" on realtime.messages for select to authenticated
    using (realtime.topic() like 'replay:%' and extension = 'broadcast');
  create policy "sealed: members may only see presence" on realtime.messages for select to authenticated
    using (realtime.topic() like 'sealed:%' and extension = 'presence');
  create function public.rt_send(topic text, body jsonb, is_private boolean) returns void
  language sql security definer set search_path = ''
  as $$ select realtime.send(body, 'note', topic, is_private) $$;
  revoke all on function public.rt_send(text, jsonb, boolean) from public, anon, authenticated;
  grant execute on function public.rt_send(text, jsonb, boolean) to service_role;
`;

beforeAll(async () => {
  server = await startServerProcess({ PGRST_DB_SCHEMAS: 'public,inventory' }, { sql: SQL });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.removeAllChannels().catch(() => {})));
});
afterAll(async () => {
  await server?.close();
});

const CLIENTS = [
  ['supabase-js 2.109 (the oldest supported)', createOldest as unknown as typeof createApp],
  ['supabase-js of the app (the newest)', createApp],
] as const;

async function waitFor<T>(check: () => T | undefined | false, timeout = 8000): Promise<T> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const unique = (prefix: string) => `${prefix}${Math.random().toString(36).slice(2)}`;

/** The subscribe callback's outcome: SUBSCRIBED, or CHANNEL_ERROR with the server's reason. */
function subscribed(channel: Channel): Promise<{ status: string; message?: string }> {
  return new Promise((resolve) => {
    channel.subscribe((status, error) => {
      if (status === 'SUBSCRIBED' || status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') {
        resolve({ status, message: error?.message });
      }
    });
  });
}

describe.each(CLIENTS)('%s', (_name, create) => {
  function client(key = server.anonKey): SupabaseClient {
    const made = create(server.url, key, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: WebSocket as never },
    });
    clients.push(made);
    return made;
  }

  async function member(): Promise<SupabaseClient> {
    const account = await createUser(server);
    const supabase = client();
    const { error } = await supabase.auth.signInWithPassword({
      email: account.email,
      password: account.password,
    });
    expect(error).toBeNull();
    return supabase;
  }

  const service = () => client(server.serviceRoleKey);

  describe('postgres_changes outside public', () => {
    it('delivers a schema’s tables by name or all at once, each subscriber only the rows RLS lets it read', async () => {
      const [alice, bob] = await Promise.all([member(), member()]);
      const aliceStock: Row[] = [];
      const bobAll: Row[] = [];
      const system: Row[] = [];
      const aliceChannel = alice
        .channel(unique('stock-'))
        .on('postgres_changes', { event: 'INSERT', schema: 'inventory', table: 'stock' }, (payload) =>
          aliceStock.push(payload as Row),
        )
        .on('system', {}, (payload) => system.push(payload as Row));
      const bobChannel = bob
        .channel(unique('all-'))
        .on('postgres_changes', { event: '*', schema: 'inventory' }, (payload) =>
          bobAll.push(payload as Row),
        );
      expect(await subscribed(aliceChannel)).toEqual({ status: 'SUBSCRIBED', message: undefined });
      expect(await subscribed(bobChannel)).toEqual({ status: 'SUBSCRIBED', message: undefined });
      await waitFor(() => system.some((message) => message.extension === 'postgres_changes'));
      expect(system.find((message) => message.extension === 'postgres_changes')).toMatchObject({
        status: 'ok',
        message: 'Subscribed to PostgreSQL',
      });

      const sku = unique('sku-');
      expect((await alice.schema('inventory').from('stock').insert({ sku })).error).toBeNull();
      expect(
        (
          await bob
            .schema('inventory')
            .from('stock')
            .insert({ sku: `${sku}-bob` })
        ).error,
      ).toBeNull();
      const shelf = Math.floor(Math.random() * 1e9);
      expect(
        (await service().schema('inventory').from('shelves').insert({ id: shelf, label: 'top' })).error,
      ).toBeNull();

      const own = await waitFor(() => aliceStock.find((row) => (row.new as Row).sku === sku));
      expect(own).toMatchObject({ schema: 'inventory', table: 'stock', eventType: 'INSERT', new: { sku } });
      await waitFor(() => bobAll.some((row) => (row.new as Row).id === shelf));
      await waitFor(() => bobAll.some((row) => (row.new as Row).sku === `${sku}-bob`));
      // Give a wrongly delivered row time to arrive before asserting it never did.
      await sleep(300);
      expect(aliceStock.map((row) => (row.new as Row).sku)).toEqual([sku]);
      expect(bobAll.map((row) => [row.table, row.eventType])).toEqual(
        expect.arrayContaining([
          ['stock', 'INSERT'],
          ['shelves', 'INSERT'],
        ]),
      );
      expect(bobAll.some((row) => (row.new as Row).sku === sku)).toBe(false);
    });

    it('answers a table of the schema that is not published, or a schema that does not exist, with Supabase’s system error', async () => {
      for (const [schema, table] of [
        ['inventory', 'ledger'],
        ['no_such_schema', 'stock'],
      ] as const) {
        const system: Row[] = [];
        const channel = client()
          .channel(unique('missing-'))
          .on('postgres_changes', { event: '*', schema, table }, () => {})
          .on('system', {}, (payload) => system.push(payload as Row));
        await subscribed(channel);
        const message = await waitFor(() => system.find((entry) => entry.extension === 'postgres_changes'));
        expect(message).toMatchObject({ status: 'error' });
        expect(String(message.message)).toContain(`schema: ${schema}, table: ${table}`);
      }
    });
  });

  describe('broadcast replay on private channels', () => {
    it('replays stored broadcasts since a time, oldest first, up to the limit, then carries live ones once', async () => {
      const topic = unique('replay:');
      const reader = await member();
      const before = Date.now() - 1000;
      for (const n of [1, 2, 3, 4]) {
        expect((await service().rpc('rt_send', { topic, body: { n }, is_private: true })).error).toBeNull();
      }
      // A public broadcast of the same name is not a private channel's history.
      expect(
        (await service().rpc('rt_send', { topic, body: { n: 99 }, is_private: false })).error,
      ).toBeNull();

      const got: Row[] = [];
      const channel = reader
        .channel(topic, { config: { private: true, broadcast: { replay: { since: before, limit: 3 } } } })
        .on('broadcast', { event: 'note' }, (payload) => got.push(payload as Row));
      expect(await subscribed(channel)).toEqual({ status: 'SUBSCRIBED', message: undefined });
      await waitFor(() => got.length === 3);
      // The newest three, oldest first, marked as replayed with their row's id.
      expect(got.map((message) => (message.payload as Row).n)).toEqual([2, 3, 4]);
      for (const message of got) {
        expect(message.meta).toEqual({ replayed: true, id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      }
      expect(new Set(got.map((message) => (message.meta as Row).id)).size).toBe(3);

      expect((await service().rpc('rt_send', { topic, body: { n: 5 }, is_private: true })).error).toBeNull();
      await waitFor(() => got.length === 4);
      await sleep(300);
      expect(got.map((message) => (message.payload as Row).n)).toEqual([2, 3, 4, 5]);
      expect(got[3]?.meta).toEqual({ id: expect.any(String) });
    });

    it('replays nothing older than since, caps the limit at 25 and defaults it', async () => {
      const topic = unique('replay:');
      const reader = await member();
      for (let n = 1; n <= 27; n++) {
        expect((await service().rpc('rt_send', { topic, body: { n }, is_private: true })).error).toBeNull();
      }
      const capped: Row[] = [];
      const many = reader
        .channel(topic, { config: { private: true, broadcast: { replay: { since: 0, limit: 100 } } } })
        .on('broadcast', { event: 'note' }, (payload) => capped.push(payload as Row));
      expect((await subscribed(many)).status).toBe('SUBSCRIBED');
      await waitFor(() => capped.length === 25);
      await sleep(300);
      expect(capped.map((message) => (message.payload as Row).n)).toEqual(
        Array.from({ length: 25 }, (_, i) => i + 3),
      );

      const later: Row[] = [];
      const future = (await member())
        .channel(topic, { config: { private: true, broadcast: { replay: { since: Date.now() + 60_000 } } } })
        .on('broadcast', { event: 'note' }, (payload) => later.push(payload as Row));
      expect((await subscribed(future)).status).toBe('SUBSCRIBED');
      await sleep(500);
      expect(later).toEqual([]);
    });

    it('refuses replay to an identity that may not read broadcasts, and with invalid parameters', async () => {
      const reader = await member();
      const sealed = reader.channel(unique('sealed:'), {
        config: { private: true, presence: { enabled: true }, broadcast: { replay: { since: 0 } } },
      });
      const refused = await subscribed(sealed);
      expect(refused.status).toBe('CHANNEL_ERROR');
      expect(refused.message).toBe(
        `Unauthorized: You do not have permissions to read from this Channel topic: ${sealed.subTopic}`,
      );

      const invalid = reader.channel(unique('replay:'), {
        config: { private: true, broadcast: { replay: { since: 'yesterday' as unknown as number } } },
      });
      const answer = await subscribed(invalid);
      expect(answer.status).toBe('CHANNEL_ERROR');
      expect(answer.message).toBe('UnableToReplayMessages: Replay params are not valid');
    });
  });
});

describe('broadcast replay on a public channel', () => {
  it('is refused by both clients before sending, and by the server with Supabase’s reason', async () => {
    for (const create of [createOldest as unknown as typeof createApp, createApp]) {
      const supabase = create(server.url, server.anonKey, {
        auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
        realtime: { transport: WebSocket as never },
      });
      clients.push(supabase);
      expect(() =>
        supabase.channel(unique('public-'), { config: { broadcast: { replay: { since: 0 } } } }),
      ).toThrow('must be a private channel');
    }
    // What another client could still send: a raw join of a public channel asking for replay.
    const socket = new WebSocket(
      `${server.url.replace(/^http/, 'ws')}/realtime/v1/websocket?apikey=${server.anonKey}&vsn=1.0.0`,
    );
    const reply = await new Promise<Row>((resolve, reject) => {
      socket.on('error', reject);
      socket.on('message', (data) => {
        const message = JSON.parse(String(data)) as Row;
        if (message.event === 'phx_reply') resolve(message.payload as Row);
      });
      socket.on('open', () =>
        socket.send(
          JSON.stringify({
            topic: `realtime:${unique('public-')}`,
            event: 'phx_join',
            payload: { config: { private: false, broadcast: { replay: { since: 0 } } } },
            ref: '1',
            join_ref: '1',
          }),
        ),
      );
    });
    socket.close();
    expect(reply).toEqual({
      status: 'error',
      response: { reason: 'UnableToReplayMessages: Replay is not allowed for public channels' },
    });
  });
});
