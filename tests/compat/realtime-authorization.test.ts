// @databases: both — private channels are decided by RLS on realtime.messages.
/**
 * Realtime Authorization and broadcast from the database (issue 24, decision 147), through the
 * oldest supabase-js supported (2.109) and the one the app ships: private channels are decided by
 * the row-level security policies of `realtime.messages` (SELECT to join, INSERT to send or track),
 * with `realtime.topic()` inside them, as Supabase Realtime decides them; `realtime.send` and
 * `realtime.broadcast_changes` reach the subscribers of their topic; the product's notifications
 * reach their recipient on the private topic `user:<id>`, and nobody else may join it.
 */
import { createClient as createApp, type SupabaseClient } from '@supabase/supabase-js';
import { createClient as createOldest } from 'supabase-js-oldest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type ServerProcess, startServerProcess } from '#tests/support/server-process.ts';
import { createUser, type User } from '#tests/support/users.ts';

type Row = Record<string, unknown>;
type Channel = ReturnType<SupabaseClient['channel']>;

let server: ServerProcess;
const clients: SupabaseClient[] = [];

/**
 * A project's own policies, as a Supabase project would write them: members read (broadcast and
 * presence) every `room:` topic and write only `room:open:` ones; `news:` topics carry broadcast
 * only (presence is not readable there). Two functions stand for a project's database code: one
 * calls realtime.send, and a trigger of rt_items calls realtime.broadcast_changes.
 */
const SQL = `
  create policy "rooms: members read" on realtime.messages for select to authenticated
    using (realtime.topic() like 'room:%');
  create policy "rooms: members write open rooms" on realtime.messages for insert to authenticated
    with check (realtime.topic() like 'room:open:%');
  create policy "news: anyone reads broadcasts" on realtime.messages for select to anon, authenticated
    using (realtime.topic() like 'news:%' and extension = 'broadcast');
  create policy "desk: members read broadcasts, its owner presence too" on realtime.messages
    for select to authenticated
    using (realtime.topic() like 'desk:%'
           and (extension = 'broadcast' or realtime.topic() = 'desk:' || (select auth.uid())::text));

  create function public.rt_send(topic text, body jsonb, is_private boolean) returns void
  language sql security definer set search_path = ''
  as $$ select realtime.send(body, 'note', topic, is_private) $$;
  revoke all on function public.rt_send(text, jsonb, boolean) from public, anon, authenticated;
  grant execute on function public.rt_send(text, jsonb, boolean) to service_role;

  create table public.rt_items (id bigint generated always as identity primary key, room text not null, label text);
  grant select, insert, update, delete on public.rt_items to service_role;
  create function public.rt_items_changed() returns trigger
  language plpgsql security definer set search_path = ''
  as $$
  begin
    perform realtime.broadcast_changes(
      'room:' || coalesce(new.room, old.room), tg_op, tg_op, tg_table_name, tg_table_schema, new, old
    );
    return null;
  end
  $$;
  create trigger rt_items_changed after insert or update or delete on public.rt_items
    for each row execute function public.rt_items_changed();
`;

beforeAll(async () => {
  server = await startServerProcess({}, { sql: SQL });
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

function unique(prefix: string): string {
  return `${prefix}${Math.random().toString(36).slice(2)}`;
}

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
  function client(key = server.anonKey, timeout?: number): SupabaseClient {
    const made = create(server.url, key, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: WebSocket as never, ...(timeout ? { timeout } : {}) },
    });
    clients.push(made);
    return made;
  }

  async function member(user?: User, timeout?: number): Promise<{ supabase: SupabaseClient; user: User }> {
    const account = user ?? (await createUser(server));
    const supabase = client(server.anonKey, timeout);
    const { error } = await supabase.auth.signInWithPassword({
      email: account.email,
      password: account.password,
    });
    expect(error).toBeNull();
    return { supabase, user: account };
  }

  const service = () => client(server.serviceRoleKey);

  it('lets a member join a private channel its SELECT policy allows, and refuses one it does not, with Supabase’s reason', async () => {
    const { supabase } = await member();
    const room = unique('room:');
    expect(await subscribed(supabase.channel(room, { config: { private: true } }))).toEqual({
      status: 'SUBSCRIBED',
      message: undefined,
    });
    const other = unique('elsewhere:');
    expect(await subscribed(supabase.channel(other, { config: { private: true } }))).toEqual({
      status: 'CHANNEL_ERROR',
      message: `Unauthorized: You do not have permissions to read from this Channel topic: ${other}`,
    });
    // A visitor (anon key) is refused where only members may read; the same name as a public
    // channel is another channel, open to all.
    const visitor = client();
    expect(await subscribed(visitor.channel(room, { config: { private: true } }))).toEqual({
      status: 'CHANNEL_ERROR',
      message: `Unauthorized: You do not have permissions to read from this Channel topic: ${room}`,
    });
    expect((await subscribed(client().channel(room))).status).toBe('SUBSCRIBED');
    // The service key bypasses row-level security, as on Supabase.
    expect((await subscribed(service().channel(other, { config: { private: true } }))).status).toBe(
      'SUBSCRIBED',
    );
  });

  it('delivers broadcasts on a private channel to its readers, and drops sends its INSERT policy refuses', async () => {
    const room = unique('room:open:');
    const readonlyRoom = unique('room:closed:');
    const { supabase: reader } = await member();
    const { supabase: writer } = await member(undefined, 1500);
    const got: Row[] = [];
    const gotClosed: Row[] = [];
    const listening = reader
      .channel(room, { config: { private: true } })
      .on('broadcast', { event: 'say' }, (message) => got.push(message as Row));
    const listeningClosed = reader
      .channel(readonlyRoom, { config: { private: true } })
      .on('broadcast', { event: 'say' }, (message) => gotClosed.push(message as Row));
    const sending = writer.channel(room, { config: { private: true, broadcast: { ack: true } } });
    const sendingClosed = writer.channel(readonlyRoom, {
      config: { private: true, broadcast: { ack: true } },
    });
    const results = await Promise.all([listening, listeningClosed, sending, sendingClosed].map(subscribed));
    expect(results.map((result) => result.status)).toEqual([
      'SUBSCRIBED',
      'SUBSCRIBED',
      'SUBSCRIBED',
      'SUBSCRIBED',
    ]);

    expect(await sending.send({ type: 'broadcast', event: 'say', payload: { n: 1 } })).toBe('ok');
    await waitFor(() => got.length === 1);
    expect(got[0]).toMatchObject({ event: 'say', payload: { n: 1 } });

    // No INSERT policy for room:closed:… — the send is dropped without a reply, as on Supabase.
    expect(await sendingClosed.send({ type: 'broadcast', event: 'say', payload: { n: 2 } })).toBe(
      'timed out',
    );
    // A later message the service key sends there arrives alone: the refused one never went out.
    await service()
      .channel(readonlyRoom, { config: { private: true } })
      .send({ type: 'broadcast', event: 'say', payload: { n: 3 } });
    await waitFor(() => gotClosed.length === 1);
    expect(gotClosed.map((message) => (message.payload as Row).n)).toEqual([3]);
  });

  it('checks presence on private channels: track needs INSERT, presence state needs SELECT on presence', async () => {
    const room = unique('room:open:');
    const { supabase: a } = await member();
    const { supabase: b } = await member();
    const channelA = a.channel(room, { config: { private: true, presence: { key: 'a' } } });
    channelA.on('presence', { event: 'sync' }, () => {});
    const channelB = b.channel(room, { config: { private: true, presence: { key: 'b' } } });
    channelB.on('presence', { event: 'sync' }, () => {});
    await Promise.all([subscribed(channelA), subscribed(channelB)]);
    expect(await channelA.track({ online: true })).toBe('ok');
    await waitFor(() => Object.keys(channelB.presenceState()).includes('a'));

    // room:closed:… may be read but not written: tracking is refused.
    const closed = a.channel(unique('room:closed:'), { config: { private: true, presence: { key: 'a' } } });
    closed.on('presence', { event: 'sync' }, () => {});
    expect((await subscribed(closed)).status).toBe('SUBSCRIBED');
    expect(await closed.track({ online: true })).toBe('error');

    // news:… grants broadcast only: the channel is joined, but its presence is never shown.
    const news = unique('news:');
    const watcher = b.channel(news, { config: { private: true } });
    let syncs = 0;
    watcher.on('presence', { event: 'sync' }, () => syncs++);
    const got: Row[] = [];
    watcher.on('broadcast', { event: 'note' }, (message) => got.push(message as Row));
    expect((await subscribed(watcher)).status).toBe('SUBSCRIBED');
    const tracker = service().channel(news, { config: { private: true, presence: { key: 'svc' } } });
    tracker.on('presence', { event: 'sync' }, () => {});
    await subscribed(tracker);
    expect(await tracker.track({ here: true })).toBe('ok');
    expect(
      (await service().rpc('rt_send', { topic: news, body: { after: 'track' }, is_private: true })).error,
    ).toBeNull();
    await waitFor(() => got.length === 1);
    expect(syncs).toBe(0);
    expect(watcher.presenceState()).toEqual({});
  });

  it('delivers realtime.send to the subscribers of its topic, private or public', async () => {
    const room = unique('room:');
    const { supabase } = await member();
    const privately: Row[] = [];
    const publicly: Row[] = [];
    const privateChannel = supabase
      .channel(room, { config: { private: true } })
      .on('broadcast', { event: 'note' }, (message) => privately.push(message as Row));
    const publicChannel = client()
      .channel(room)
      .on('broadcast', { event: 'note' }, (message) => publicly.push(message as Row));
    await Promise.all([subscribed(privateChannel), subscribed(publicChannel)]);

    expect(
      (await service().rpc('rt_send', { topic: room, body: { text: 'secret' }, is_private: true })).error,
    ).toBeNull();
    expect(
      (await service().rpc('rt_send', { topic: room, body: { text: 'open' }, is_private: false })).error,
    ).toBeNull();
    await waitFor(() => privately.length === 1 && publicly.length === 1);
    expect(privately[0]).toMatchObject({ event: 'note', payload: { text: 'secret' } });
    expect(publicly[0]).toMatchObject({ event: 'note', payload: { text: 'open' } });
    // realtime.send adds the message's id to the payload, as Supabase's does.
    expect(privately[0]).toMatchObject({ payload: { id: expect.stringMatching(/^[0-9a-f-]{36}$/) } });
  });

  it('delivers realtime.broadcast_changes from a row trigger', async () => {
    const room = unique('');
    const { supabase } = await member();
    const got: Row[] = [];
    const channel = supabase
      .channel(`room:${room}`, { config: { private: true } })
      .on('broadcast', { event: '*' }, (message) => got.push(message as Row));
    expect((await subscribed(channel)).status).toBe('SUBSCRIBED');
    const admin = service();
    const inserted = await admin.from('rt_items').insert({ room, label: 'first' }).select('id').single();
    expect(inserted.error).toBeNull();
    const id = (inserted.data as { id: number }).id;
    expect((await admin.from('rt_items').update({ label: 'second' }).eq('id', id)).error).toBeNull();
    expect((await admin.from('rt_items').delete().eq('id', id)).error).toBeNull();
    await waitFor(() => got.length === 3);
    expect(got.map((message) => message.event)).toEqual(['INSERT', 'UPDATE', 'DELETE']);
    expect(got[0]?.payload).toMatchObject({
      operation: 'INSERT',
      table: 'rt_items',
      schema: 'public',
      record: { id, room, label: 'first' },
      old_record: null,
    });
    expect(got[1]?.payload).toMatchObject({ record: { label: 'second' }, old_record: { label: 'first' } });
    expect(got[2]?.payload).toMatchObject({ operation: 'DELETE', record: null, old_record: { id } });
  });

  it('broadcasts each new notification on its recipient’s private user:<id> topic, which only they may join', async () => {
    const { supabase, user } = await member();
    const got: Row[] = [];
    const own = supabase
      .channel(`user:${user.id}`, { config: { private: true } })
      .on('broadcast', { event: 'INSERT' }, (message) => got.push(message as Row));
    expect((await subscribed(own)).status).toBe('SUBSCRIBED');

    const { supabase: stranger } = await member();
    expect(await subscribed(stranger.channel(`user:${user.id}`, { config: { private: true } }))).toEqual({
      status: 'CHANNEL_ERROR',
      message: `Unauthorized: You do not have permissions to read from this Channel topic: user:${user.id}`,
    });
    expect(
      (await subscribed(client().channel(`user:${user.id}`, { config: { private: true } }))).status,
    ).toBe('CHANNEL_ERROR');

    const inserted = await service()
      .from('notifications')
      .insert({ user_id: user.id, title: 'Hello', message: 'live' });
    expect(inserted.error).toBeNull();
    await waitFor(() => got.length === 1);
    expect(got[0]?.payload).toMatchObject({
      operation: 'INSERT',
      table: 'notifications',
      schema: 'public',
      record: { user_id: user.id, title: 'Hello', message: 'live', is_read: false },
    });
    // The recipient may only listen there: sending is not theirs.
    const timed = await member(user, 1500);
    const sender = timed.supabase.channel(`user:${user.id}`, {
      config: { private: true, broadcast: { ack: true } },
    });
    expect((await subscribed(sender)).status).toBe('SUBSCRIBED');
    expect(await sender.send({ type: 'broadcast', event: 'INSERT', payload: { forged: true } })).toBe(
      'timed out',
    );
  });

  it('closes a private channel whose new token lost a read right it had (presence here)', async () => {
    const { supabase, user } = await member();
    const systems: Row[] = [];
    const statuses: string[] = [];
    const channel = supabase
      .channel(`desk:${user.id}`, { config: { private: true, presence: { key: 'me' } } })
      .on('presence', { event: 'sync' }, () => {})
      .on('system', {}, (message) => systems.push(message as Row));
    channel.subscribe((status) => statuses.push(status));
    await waitFor(() => statuses.includes('SUBSCRIBED'));

    // Another member may read the desk's broadcasts, not its presence.
    const { supabase: other } = await member();
    const token = (await other.auth.getSession()).data.session?.access_token as string;
    await supabase.realtime.setAuth(token);
    await waitFor(() => systems.some((message) => message.status === 'error'));
    expect(systems.find((message) => message.status === 'error')).toMatchObject({
      extension: 'system',
      status: 'error',
      message: `You no longer have permission to read from this Channel topic: desk:${user.id}`,
    });
  });

  it('re-checks a private channel when its token changes: another member’s token closes it', async () => {
    const { supabase, user } = await member();
    const systems: Row[] = [];
    const statuses: string[] = [];
    const channel = supabase
      .channel(`user:${user.id}`, { config: { private: true } })
      .on('system', {}, (message) => systems.push(message as Row));
    channel.subscribe((status) => statuses.push(status));
    await waitFor(() => statuses.includes('SUBSCRIBED'));

    const { supabase: other } = await member();
    const token = (await other.auth.getSession()).data.session?.access_token as string;
    await supabase.realtime.setAuth(token);
    await waitFor(() => systems.some((message) => message.status === 'error'));
    expect(systems.find((message) => message.status === 'error')).toMatchObject({
      extension: 'system',
      status: 'error',
      message: `You do not have permissions to read from this Channel topic: user:${user.id}`,
    });
  });
});

describe('the HTTP broadcast API on private topics', () => {
  it('sends what the caller’s INSERT policies allow and drops the rest, answering 202 either way', async () => {
    const reader = await createUser(server);
    const supabase = createApp(server.url, server.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { transport: WebSocket as never },
    });
    clients.push(supabase);
    await supabase.auth.signInWithPassword({ email: reader.email, password: reader.password });
    const token = (await supabase.auth.getSession()).data.session?.access_token as string;
    const open = unique('room:open:');
    const closed = unique('room:closed:');
    const got: Row[] = [];
    const channels = [open, closed].map((topic) =>
      supabase
        .channel(topic, { config: { private: true } })
        .on('broadcast', { event: 'http' }, (message) => got.push({ topic, ...(message as Row) })),
    );
    await Promise.all(channels.map(subscribed));
    const response = await fetch(`${server.url}/realtime/v1/api/broadcast`, {
      method: 'POST',
      headers: {
        apikey: server.anonKey,
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        messages: [
          { topic: closed, event: 'http', payload: { n: 1 }, private: true },
          { topic: open, event: 'http', payload: { n: 2 }, private: true },
        ],
      }),
    });
    expect(response.status).toBe(202);
    await waitFor(() => got.length === 1);
    const service = await fetch(`${server.url}/realtime/v1/api/broadcast`, {
      method: 'POST',
      headers: { apikey: server.serviceRoleKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        messages: [{ topic: closed, event: 'http', payload: { n: 3 }, private: true }],
      }),
    });
    expect(service.status).toBe(202);
    await waitFor(() => got.length === 2);
    expect(got.map((message) => [message.topic, (message.payload as Row).n])).toEqual([
      [open, 2],
      [closed, 3],
    ]);
  });
});
