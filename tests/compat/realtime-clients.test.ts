// @databases: both — postgres_changes are captured in the database.
/**
 * postgres_changes, broadcast and presence through the oldest supabase-js supported (2.109, alias
 * `supabase-js-oldest`) and the one the app ships (the newest published), on both protocol versions:
 * the same code must receive the same rows with either (issue 24).
 */
import { createClient as createApp, type SupabaseClient } from '@supabase/supabase-js';
import { createClient as createOldest } from 'supabase-js-oldest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type ServerProcess, startServerProcess } from '#tests/support/server-process.ts';
import { createUser } from '#tests/support/users.ts';

type Row = Record<string, unknown>;

let server: ServerProcess;
const clients: SupabaseClient[] = [];

/** A table without row-level security, readable by everyone and published, as a project would add one. */
const SQL = `
  create table public.rt_messages (id bigint generated always as identity primary key, room text not null, body text);
  grant select on public.rt_messages to anon, authenticated;
  alter publication supabase_realtime add table public.rt_messages;
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

describe.each(CLIENTS)('%s', (_name, create) => {
  function client(vsn?: '1.0.0' | '2.0.0'): SupabaseClient {
    const made = create(server.url, server.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: WebSocket as never, ...(vsn ? { vsn } : {}) },
    });
    clients.push(made);
    return made;
  }

  for (const vsn of [undefined, '1.0.0', '2.0.0'] as const) {
    it(`receives a member's own notifications as postgres_changes (vsn ${vsn ?? 'default'}), with and without a filter`, async () => {
      const user = await createUser(server);
      const member = client(vsn);
      const { error } = await member.auth.signInWithPassword({ email: user.email, password: user.password });
      expect(error).toBeNull();
      const all: Row[] = [];
      const filtered: Row[] = [];
      const statuses: string[] = [];
      member
        .channel(`notifications-${user.id}`)
        .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'notifications' }, (payload) =>
          all.push(payload as Row),
        )
        .on(
          'postgres_changes',
          { event: '*', schema: 'public', table: 'notifications', filter: `user_id=eq.${user.id}` },
          (payload) => filtered.push(payload as Row),
        )
        .subscribe((status) => statuses.push(status));
      await waitFor(() => statuses.includes('SUBSCRIBED'));

      const service = create(server.url, server.serviceRoleKey, {
        auth: { persistSession: false, autoRefreshToken: false },
        realtime: { transport: WebSocket as never },
      });
      const inserted = await service
        .from('notifications')
        .insert({ user_id: user.id, title: 'Hello', message: `via ${vsn ?? 'default'}` });
      expect(inserted.error).toBeNull();

      const row = await waitFor(() => all[0]);
      expect(row).toMatchObject({
        schema: 'public',
        table: 'notifications',
        eventType: 'INSERT',
        new: { user_id: user.id, title: 'Hello', message: `via ${vsn ?? 'default'}` },
      });
      await waitFor(() => filtered.length === 1);
      expect(filtered[0]).toMatchObject({ eventType: 'INSERT', new: { user_id: user.id } });
    });
  }

  it('gives a visitor (anon key) inserts, updates and deletes of a table without RLS, filtered or not', async () => {
    const room = `room-${Math.random().toString(36).slice(2)}`;
    const all: Row[] = [];
    const inRoom: Row[] = [];
    const statuses: string[] = [];
    client()
      .channel(`rt-${room}`)
      .on('postgres_changes', { event: '*', schema: 'public', table: 'rt_messages' }, (payload) =>
        all.push(payload as Row),
      )
      .on(
        'postgres_changes',
        { event: 'UPDATE', schema: 'public', table: 'rt_messages', filter: `room=eq.${room}` },
        (payload) => inRoom.push(payload as Row),
      )
      .subscribe((status) => statuses.push(status));
    await waitFor(() => statuses.includes('SUBSCRIBED'));
    const service = create(server.url, server.serviceRoleKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { transport: WebSocket as never },
    });
    const inserted = await service.from('rt_messages').insert({ room, body: 'one' }).select('id').single();
    expect(inserted.error).toBeNull();
    const id = (inserted.data as { id: number }).id;
    expect((await service.from('rt_messages').update({ body: 'two' }).eq('id', id)).error).toBeNull();
    expect((await service.from('rt_messages').delete().eq('id', id)).error).toBeNull();

    await waitFor(
      () => all.filter((row) => (row.new as Row)?.room === room || (row.old as Row)?.id === id).length === 3,
    );
    const mine = all.filter((row) => (row.new as Row)?.room === room || (row.old as Row)?.id === id);
    expect(mine.map((row) => row.eventType)).toEqual(['INSERT', 'UPDATE', 'DELETE']);
    expect(mine[1]).toMatchObject({ new: { id, room, body: 'two' } });
    expect(mine[2]).toMatchObject({ old: { id } });
    await waitFor(() => inRoom.length === 1);
    expect(inRoom[0]).toMatchObject({ eventType: 'UPDATE', new: { body: 'two' } });
  });

  it('carries broadcast and presence between two clients', async () => {
    const topic = `room-${Math.random().toString(36).slice(2)}`;
    const got: Row[] = [];
    const a = client()
      .channel(topic, { config: { presence: { key: 'a' } } })
      .on('presence', { event: 'sync' }, () => {});
    const b = client()
      .channel(topic, { config: { presence: { key: 'b' } } })
      .on('presence', { event: 'sync' }, () => {})
      .on('broadcast', { event: 'hello' }, (payload) => got.push(payload as Row));
    const joined = (channel: ReturnType<SupabaseClient['channel']>) =>
      new Promise<string>((resolve) =>
        channel.subscribe((status) => status === 'SUBSCRIBED' && resolve(status)),
      );
    await Promise.all([joined(a), joined(b)]);
    await a.track({ online: true });
    await waitFor(() => Object.keys(b.presenceState()).includes('a'));
    expect(await a.send({ type: 'broadcast', event: 'hello', payload: { n: 1 } })).toBe('ok');
    await waitFor(() => got.length === 1);
    expect(got[0]).toMatchObject({ event: 'hello', payload: { n: 1 } });
  });
});
