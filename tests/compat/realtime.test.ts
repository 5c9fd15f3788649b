/**
 * Broadcast, presence and channel identity through @supabase/supabase-js only (HTTP and WebSocket,
 * nothing from server/), so the same file could run against a hosted Supabase project.
 */
import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, clientFor } from '#tests/support/clients.ts';
import { type ServerProcess, startServerProcess } from '#tests/support/server-process.ts';
import { signToken } from '#tests/support/tokens.ts';
import { createUser } from '#tests/support/users.ts';

type Message = Record<string, unknown>;

let server: ServerProcess;
const clients: SupabaseClient[] = [];
/** A member's id: channels act for an account that exists (a deleted one's token is refused). */
let memberId: string;

beforeAll(async () => {
  server = await startServerProcess();
  memberId = (await createUser(server)).id;
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.removeAllChannels().catch(() => {})));
});

afterAll(async () => {
  await server?.close();
});

function client(options: { key?: string; vsn?: '1.0.0' | '2.0.0' } = {}): SupabaseClient {
  const made = clientFor(server, options);
  clients.push(made);
  return made;
}

function token(expiresInSeconds: number, sub = memberId): Promise<string> {
  return signToken(server.jwtSecret, { sub, role: 'authenticated' }, { expiresIn: expiresInSeconds });
}

function subscribe(channel: RealtimeChannel): Promise<string> {
  return new Promise((resolve) => channel.subscribe((status) => resolve(status)));
}

async function waitFor<T>(check: () => T | undefined | false, timeout = 5000): Promise<T> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const topic = () => `room-${Math.random().toString(36).slice(2)}`;

describe('broadcast', () => {
  it('goes round trip between clients, with ack, without echo unless self is set', async () => {
    const name = topic();
    const got = { alice: [] as Message[], bob: [] as Message[], carol: [] as Message[] };
    const alice = client()
      .channel(name, { config: { broadcast: { ack: true } } })
      .on('broadcast', { event: 'cursor' }, (payload) => got.alice.push(payload));
    const bob = client()
      .channel(name)
      .on('broadcast', { event: 'cursor' }, (payload) => got.bob.push(payload));
    const carol = client()
      .channel(name, { config: { broadcast: { self: true } } })
      .on('broadcast', { event: '*' }, (payload) => got.carol.push(payload));
    expect(await Promise.all([subscribe(alice), subscribe(bob), subscribe(carol)])).toEqual([
      'SUBSCRIBED',
      'SUBSCRIBED',
      'SUBSCRIBED',
    ]);

    expect(await alice.send({ type: 'broadcast', event: 'cursor', payload: { x: 1, y: 2 } })).toBe('ok');
    await waitFor(() => got.bob.length === 1 && got.carol.length === 1);
    expect(got.bob[0]).toEqual({ type: 'broadcast', event: 'cursor', payload: { x: 1, y: 2 } });

    expect(await carol.send({ type: 'broadcast', event: 'wave', payload: { hi: true } })).toBe('ok');
    await waitFor(() => got.carol.length === 2);
    expect(got.carol[1]).toEqual({ type: 'broadcast', event: 'wave', payload: { hi: true } });
    await sleep(100);
    expect(got.alice).toEqual([]);
    expect(got.bob).toHaveLength(1);
  });

  it('carries binary payloads as bytes', async () => {
    const name = topic();
    const received: Message[] = [];
    const sender = client().channel(name, { config: { broadcast: { ack: true } } });
    const receiver = client()
      .channel(name)
      .on('broadcast', { event: 'blob' }, (payload) => received.push(payload));
    await Promise.all([subscribe(sender), subscribe(receiver)]);
    const bytes = new Uint8Array([1, 2, 3, 254, 255]);
    expect(await sender.send({ type: 'broadcast', event: 'blob', payload: bytes.buffer })).toBe('ok');
    await waitFor(() => received.length === 1);
    expect(new Uint8Array(received[0]?.payload as ArrayBuffer)).toEqual(bytes);
  });

  it('works for 1.0.0 clients too, between both wire formats', async () => {
    const name = topic();
    const got = { old: [] as Message[], current: [] as Message[] };
    const old = client({ vsn: '1.0.0' })
      .channel(name, { config: { broadcast: { ack: true } } })
      .on('broadcast', { event: 'ping' }, (payload) => got.old.push(payload));
    const current = client()
      .channel(name, { config: { broadcast: { ack: true } } })
      .on('broadcast', { event: 'ping' }, (payload) => got.current.push(payload));
    await Promise.all([subscribe(old), subscribe(current)]);
    expect(await old.send({ type: 'broadcast', event: 'ping', payload: { from: 'old' } })).toBe('ok');
    expect(await current.send({ type: 'broadcast', event: 'ping', payload: { from: 'current' } })).toBe('ok');
    await waitFor(() => got.old.length === 1 && got.current.length === 1);
    expect(got.old[0]).toEqual({ type: 'broadcast', event: 'ping', payload: { from: 'current' } });
    expect(got.current[0]).toEqual({ type: 'broadcast', event: 'ping', payload: { from: 'old' } });
  });

  it('is accepted over HTTP (httpSend, and send() before joining) with the anon or service key', async () => {
    const name = topic();
    const received: Message[] = [];
    const listener = client()
      .channel(name)
      .on('broadcast', { event: '*' }, (payload) => received.push(payload));
    await subscribe(listener);

    const anonSender = client().channel(name);
    expect(await anonSender.httpSend('news', { headline: 'hello' })).toEqual({ success: true });
    const serviceSender = client({ key: server.serviceRoleKey }).channel(name);
    const warn = console.warn;
    console.warn = () => {};
    try {
      expect(await serviceSender.send({ type: 'broadcast', event: 'batch', payload: { n: 1 } })).toBe('ok');
    } finally {
      console.warn = warn;
    }
    await waitFor(() => received.length === 2);
    expect(received).toContainEqual({ type: 'broadcast', event: 'news', payload: { headline: 'hello' } });
    expect(received).toContainEqual({ type: 'broadcast', event: 'batch', payload: { n: 1 } });

    const response = await fetch(`${server.url}/realtime/v1/api/broadcast`, {
      method: 'POST',
      headers: { apikey: 'wrong', 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ topic: name, event: 'x', payload: {} }] }),
    });
    expect(response.status).toBe(401);
    const invalid = await fetch(`${server.url}/realtime/v1/api/broadcast`, {
      method: 'POST',
      headers: { apikey: server.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ topic: name, event: 'x', payload: 'text' }] }),
    });
    expect(invalid.status).toBe(422);
    const privateTopic = await fetch(`${server.url}/realtime/v1/api/broadcast`, {
      method: 'POST',
      headers: { apikey: server.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ topic: name, event: 'x', payload: {}, private: true }] }),
    });
    // A private topic the caller may not write to (no INSERT policy for anon): dropped, still 202,
    // as Supabase answers (decision 147).
    expect(privateTopic.status).toBe(202);
    await sleep(100);
    expect(received).toHaveLength(2);
  });
});

describe('presence', () => {
  it('syncs state, joins and leaves between clients', async () => {
    const name = topic();
    const events = { alice: [] as Message[], bob: [] as Message[] };
    const alice = client()
      .channel(name, { config: { presence: { key: 'alice' } } })
      .on('presence', { event: 'join' }, (payload) => events.alice.push(payload))
      .on('presence', { event: 'leave' }, (payload) => events.alice.push(payload));
    const bob = client()
      .channel(name, { config: { presence: { key: 'bob' } } })
      .on('presence', { event: 'sync' }, () => events.bob.push({ event: 'sync' }))
      .on('presence', { event: 'leave' }, (payload) => events.bob.push(payload));
    await Promise.all([subscribe(alice), subscribe(bob)]);

    expect(await alice.track({ name: 'Alice', online_at: 1 })).toBe('ok');
    expect(await bob.track({ name: 'Bob' })).toBe('ok');
    await waitFor(
      () => Object.keys(alice.presenceState()).length === 2 && Object.keys(bob.presenceState()).length === 2,
    );
    expect(bob.presenceState()).toEqual({
      alice: [expect.objectContaining({ name: 'Alice', online_at: 1, presence_ref: expect.any(String) })],
      bob: [expect.objectContaining({ name: 'Bob', presence_ref: expect.any(String) })],
    });
    expect(events.alice.filter((event) => event.event === 'join').map((event) => event.key)).toEqual(
      expect.arrayContaining(['alice', 'bob']),
    );

    // Tracking again replaces the meta.
    expect(await alice.track({ name: 'Alice', online_at: 2 })).toBe('ok');
    await waitFor(() => (bob.presenceState().alice as Message[] | undefined)?.[0]?.online_at === 2);
    expect(bob.presenceState().alice).toHaveLength(1);

    expect(await alice.untrack()).toBe('ok');
    await waitFor(() => bob.presenceState().alice === undefined);
    expect(events.bob.some((event) => event.event === 'leave' && event.key === 'alice')).toBe(true);

    await alice.track({ name: 'Alice again' });
    await waitFor(() => bob.presenceState().alice !== undefined);
    await alice.unsubscribe();
    await waitFor(() => bob.presenceState().alice === undefined);
  });

  it('gives a late joiner the current state', async () => {
    const name = topic();
    const early = client().channel(name, { config: { presence: { key: 'early' } } });
    await subscribe(early);
    await early.track({ status: 'here' });
    const late = client()
      .channel(name)
      .on('presence', { event: 'sync' }, () => {});
    await subscribe(late);
    await waitFor(() => late.presenceState().early !== undefined);
    expect(late.presenceState()).toEqual({ early: [expect.objectContaining({ status: 'here' })] });
  });
});

describe('the identity of a channel', () => {
  it('closes the channel with a system message when its token expires', async () => {
    const made = client();
    await made.realtime.setAuth(await token(2));
    const system: Message[] = [];
    const statuses: string[] = [];
    const channel = made.channel(topic()).on('system', {}, (payload) => system.push(payload));
    channel.subscribe((status) => statuses.push(status));
    await waitFor(() => statuses.includes('SUBSCRIBED'));
    const message = await waitFor(() => system.find((entry) => entry.extension === 'system'), 6000);
    expect(message).toMatchObject({
      status: 'error',
      message: expect.stringMatching(/^Token has expired \d+ seconds ago$/),
    });
    await waitFor(() => statuses.includes('CLOSED'));
  });

  it('stays open when the token is refreshed in time (access_token)', async () => {
    const made = client();
    await made.realtime.setAuth(await token(2));
    const system: Message[] = [];
    const channel = made.channel(topic()).on('system', {}, (payload) => system.push(payload));
    expect(await subscribe(channel)).toBe('SUBSCRIBED');
    await made.realtime.setAuth(await token(3600));
    await sleep(3000);
    expect(system).toEqual([]);
    expect(channel.state).toBe('joined');
  });

  it('is refused for a token whose account no longer exists, and closed when one is set later', async () => {
    const made = client();
    await made.realtime.setAuth(await token(3600, crypto.randomUUID()));
    const refused = await new Promise<{ status: string; error?: Error }>((resolve) =>
      made.channel(topic()).subscribe((status, error) => resolve({ status, ...(error ? { error } : {}) })),
    );
    expect(refused.status).toBe('CHANNEL_ERROR');
    expect(refused.error?.message).toBe('InvalidJWTToken: The account of this token no longer exists');

    const other = client();
    await other.realtime.setAuth(await token(3600));
    const statuses: string[] = [];
    const channel = other.channel(topic());
    channel.subscribe((status) => statuses.push(status));
    await waitFor(() => statuses.includes('SUBSCRIBED'));
    await other.realtime.setAuth(await token(3600, crypto.randomUUID()));
    await waitFor(() => statuses.includes('CLOSED') || statuses.includes('CHANNEL_ERROR'));
  });

  // Issue 13 / decision 104: a channel opened before its account was deleted or suspended is closed at
  // once (NOTIFY from auth.users, heard by every process), not when its token expires.
  for (const [what, revoke, message] of [
    ['deleted', (id: string) => adminClient(server).auth.admin.deleteUser(id), 'no longer exists'],
    [
      'suspended',
      (id: string) => adminClient(server).auth.admin.updateUserById(id, { ban_duration: '24h' }),
      'is suspended',
    ],
  ] as const) {
    it(`is closed at once when its account is ${what}, and a new join is refused`, async () => {
      const { id } = await createUser(server);
      const made = client();
      await made.realtime.setAuth(await token(3600, id));
      const system: Message[] = [];
      const statuses: string[] = [];
      const channel = made.channel(topic()).on('system', {}, (payload) => system.push(payload));
      channel.subscribe((status) => statuses.push(status));
      await waitFor(() => statuses.includes('SUBSCRIBED'));
      // A channel of another member stays open.
      const bystander = client();
      await bystander.realtime.setAuth(await token(3600));
      const other = bystander.channel(topic());
      expect(await subscribe(other)).toBe('SUBSCRIBED');

      const { error } = await revoke(id);
      expect(error).toBeNull();
      const closing = await waitFor(() => system.find((entry) => entry.extension === 'system'));
      expect(closing).toMatchObject({ status: 'error', message: `The account of this token ${message}` });
      await waitFor(() => statuses.includes('CLOSED'));

      const again = client();
      await again.realtime.setAuth(await token(3600, id));
      const refused = await new Promise<{ status: string; error?: Error }>((resolve) =>
        again
          .channel(topic())
          .subscribe((status, err) => resolve({ status, ...(err ? { error: err } : {}) })),
      );
      expect(refused.status).toBe('CHANNEL_ERROR');
      expect(refused.error?.message).toBe(`InvalidJWTToken: The account of this token ${message}`);
      expect(other.state).toBe('joined');
    });
  }

  it('is refused when the token has already expired', async () => {
    const made = client();
    await made.realtime.setAuth(await token(-10));
    const channel = made.channel(topic());
    const result = await new Promise<{ status: string; error?: Error }>((resolve) =>
      channel.subscribe((status, error) => resolve({ status, ...(error ? { error } : {}) })),
    );
    expect(result.status).toBe('CHANNEL_ERROR');
    expect(result.error?.message).toMatch(/^InvalidJWTToken: Token has expired \d+ seconds ago$/);
  });
});
