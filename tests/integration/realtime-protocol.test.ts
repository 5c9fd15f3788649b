/**
 * The websocket protocol at the frame level, for what supabase-js never sends: malformed frames,
 * unknown topics, oversized messages, floods, the limits, the binary broadcast frames of vsn 2.0.0
 * and the 1.0.0 format. Every misbehaving client gets an error and no other client notices.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { signToken, unsignedToken } from '#tests/support/tokens.ts';
import { decodeUserBroadcast, RawSocket, sleep, userBroadcastFrame, waitFor } from './realtime-support.ts';

let server: TestServer;
let limited: TestServer;
const sockets: RawSocket[] = [];

async function open(target: TestServer = server, options: Parameters<typeof RawSocket.open>[1] = {}) {
  const socket = await RawSocket.open(target, options);
  sockets.push(socket);
  return socket;
}

beforeAll(async () => {
  [server, limited] = await Promise.all([
    startTestServer({
      REALTIME_MAX_EVENTS_PER_SECOND: '20',
      REALTIME_MAX_PAYLOAD_KB: '4',
      REALTIME_MAX_CHANNELS_PER_CLIENT: '3',
    }),
    startTestServer({ REALTIME_MAX_CONNECTIONS: '2', REALTIME_IDLE_TIMEOUT_MS: '2000' }),
  ]);
});

afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
});

afterAll(async () => {
  await Promise.all([server?.close(), limited?.close()]);
});

const wsUrl = (target: TestServer, query: string) =>
  `${target.url.replace(/^http/, 'ws')}/realtime/v1/websocket${query}`;

describe('connecting', () => {
  it('needs the anon or service key as apikey, and a known vsn', async () => {
    expect(await RawSocket.refused(wsUrl(server, '?vsn=2.0.0'))).toEqual({
      status: 401,
      body: JSON.stringify({ error: 'unauthorized', message: 'No API key found in request' }),
    });
    expect(await RawSocket.refused(wsUrl(server, '?apikey=not-a-key&vsn=2.0.0'))).toMatchObject({
      status: 401,
      body: expect.stringContaining('Invalid API key'),
    });
    const user = await signToken(server.jwtSecret, { sub: crypto.randomUUID(), role: 'authenticated' });
    expect((await RawSocket.refused(wsUrl(server, `?apikey=${user}&vsn=2.0.0`))).status).toBe(401);
    expect(await RawSocket.refused(wsUrl(server, `?apikey=${server.anonKey}&vsn=3.0.0`))).toMatchObject({
      status: 400,
      body: expect.stringContaining('Unsupported vsn'),
    });
    const service = await open(server, { apikey: server.serviceRoleKey });
    expect((await service.heartbeat()).payload).toEqual({ status: 'ok', response: {} });
  });

  it('answers heartbeats on the phoenix topic, in both wire formats', async () => {
    const v2 = await open();
    const ref = v2.push('phoenix', 'heartbeat', {});
    await v2.reply(ref);
    expect(v2.messages.at(-1)).toEqual([null, ref, 'phoenix', 'phx_reply', { status: 'ok', response: {} }]);
    const v1 = await open(server, { vsn: '1.0.0' });
    const ref1 = v1.push('phoenix', 'heartbeat', {});
    await v1.reply(ref1);
    expect(v1.messages.at(-1)).toEqual({
      topic: 'phoenix',
      event: 'phx_reply',
      payload: { status: 'ok', response: {} },
      ref: ref1,
    });
  });
});

describe('malformed frames and unknown topics', () => {
  it('get an error each and leave the connection working', async () => {
    const socket = await open();
    socket.sendRaw('this is not json');
    socket.sendRaw(JSON.stringify({ topic: 'phoenix', event: 'heartbeat', payload: {}, ref: '1' }));
    socket.sendRaw(JSON.stringify([null, '7', 'phoenix', 'heartbeat', 'not an object']));
    socket.sendRaw(JSON.stringify([null, '8', 42, 'heartbeat', {}]));
    socket.sendRaw(Buffer.from([9, 1, 2, 3]));
    socket.sendRaw(Buffer.from([3, 200, 0, 0, 0, 0, 1]));
    await waitFor(() => socket.decoded.length >= 6);
    const errors = socket.decoded.map((message) =>
      message.event === 'system' ? message.payload.message : message.payload.response?.reason,
    );
    expect(errors).toEqual([
      'MalformedWebSocketMessage: the frame is not valid JSON',
      'MalformedWebSocketMessage: expected a V2 array [join_ref, ref, topic, event, payload]',
      'MalformedWebSocketMessage: payload must be a JSON object',
      'MalformedWebSocketMessage: topic must be a string',
      'MalformedWebSocketMessage: unknown binary message kind 9',
      'MalformedWebSocketMessage: binary broadcast header exceeds the frame',
    ]);
    expect(socket.decoded[0]).toMatchObject({
      topic: 'phoenix',
      event: 'system',
      payload: { status: 'error' },
    });
    expect(socket.decoded[2]).toMatchObject({ ref: '7', event: 'phx_reply', payload: { status: 'error' } });
    expect((await socket.heartbeat()).payload.status).toBe('ok');

    const v1 = await open(server, { vsn: '1.0.0' });
    v1.sendRaw(Buffer.from([3, 0, 0, 0, 0, 0, 1]));
    v1.sendRaw(JSON.stringify(['a', 'v2', 'array']));
    await waitFor(() => v1.decoded.length >= 2);
    expect(v1.decoded.map((message) => message.payload.message)).toEqual([
      'MalformedWebSocketMessage: binary frames need vsn=2.0.0',
      'MalformedWebSocketMessage: expected a V1 object {topic, event, payload, ref}',
    ]);
  });

  it('answer messages to topics that were not joined with "unmatched topic", as Phoenix does', async () => {
    const socket = await open();
    const broadcast = socket.push('realtime:never-joined', 'broadcast', {
      type: 'broadcast',
      event: 'x',
      payload: {},
    });
    expect((await socket.reply(broadcast)).payload).toEqual({
      status: 'error',
      response: { reason: 'unmatched topic' },
    });
    const other = socket.push('phoenix', 'something', {});
    expect((await socket.reply(other)).payload.response.reason).toBe('unmatched topic');
    expect((await socket.join('room-without-prefix')).reply.payload).toEqual({
      status: 'error',
      response: { reason: 'unmatched topic' },
    });
    expect((await socket.join('realtime:')).reply.payload.response.reason).toBe(
      'TopicNameRequired: You must provide a topic name',
    );
    expect((await socket.join(`realtime:${'x'.repeat(300)}`)).reply.payload.response.reason).toMatch(
      /^TopicNameTooLong/,
    );
    const leave = socket.push('realtime:never-joined', 'phx_leave', {});
    expect((await socket.reply(leave)).payload.status).toBe('ok');
    const { ref: joinRef } = await socket.join('realtime:joined');
    const unknown = socket.push('realtime:joined', 'shout', {}, joinRef);
    expect((await socket.reply(unknown)).payload.response.reason).toBe(
      'UnknownEvent: Unexpected message from client of type `shout`',
    );
  });
});

describe('joining', () => {
  it('lists the accepted postgres_changes bindings with ids, in the order sent', async () => {
    const socket = await open();
    const bindings = [
      { event: 'INSERT', schema: 'public', table: 'notifications', filter: 'is_read=eq.false' },
      { event: '*', schema: 'public', table: 'notifications' },
      { event: 'INSERT', schema: 'public', table: 'notifications', filter: 'is_read=eq.false' },
    ];
    const { reply } = await socket.join('realtime:bindings', { config: { postgres_changes: bindings } });
    expect(reply.payload.status).toBe('ok');
    const listed = reply.payload.response.postgres_changes as { id: number }[];
    expect(listed.map(({ id: _, ...params }) => params)).toEqual(bindings);
    expect(listed.every((binding) => Number.isInteger(binding.id))).toBe(true);
    expect(listed[0]?.id).toBe(listed[2]?.id);
    expect(listed[0]?.id).not.toBe(listed[1]?.id);
    await socket.event(
      (message) => message.event === 'system' && message.payload.message === 'Subscribed to PostgreSQL',
    );
  });

  it('refuses join payloads it cannot read, private channels without the service key, bad tokens', async () => {
    const socket = await open();
    const refused = async (topic: string, payload: Record<string, unknown>) =>
      (await socket.join(topic, payload)).reply.payload.response.reason as string;
    expect(await refused('realtime:a', { config: 'yes' })).toBe(
      'InvalidJoinPayload: config: unable to parse, expected a map',
    );
    expect(await refused('realtime:a', { config: { postgres_changes: 'all' } })).toBe(
      'InvalidJoinPayload: postgres_changes: unable to parse, expected an array of maps',
    );
    const many = Array.from({ length: 101 }, () => ({
      event: '*',
      schema: 'public',
      table: 'notifications',
    }));
    expect(await refused('realtime:a', { config: { postgres_changes: many } })).toBe(
      'InvalidJoinPayload: postgres_changes: at most 100 bindings per channel',
    );
    expect(await refused('realtime:a', { access_token: 42 })).toBe(
      'InvalidJoinPayload: access_token: unable to parse, expected a string',
    );
    expect(await refused('realtime:secret', { config: { private: true } })).toBe(
      'Unauthorized: You do not have permissions to read from this Channel topic: secret',
    );
    const user = crypto.randomUUID();
    const expired = await signToken(
      server.jwtSecret,
      { sub: user, role: 'authenticated' },
      { expiresIn: -30 },
    );
    expect(await refused('realtime:a', { access_token: expired })).toMatch(
      /^InvalidJWTToken: Token has expired (29|30|31|32) seconds ago$/,
    );
    expect(await refused('realtime:a', { access_token: 'not.a.jwt' })).toBe(
      'MalformedJWT: The token provided is not a valid JWT',
    );
    const forged = await signToken('another-secret-another-secret-another-secret', {
      sub: user,
      role: 'service_role',
    });
    expect(await refused('realtime:a', { access_token: forged })).toBe(
      'JwtSignatureError: Failed to validate JWT signature',
    );
    const unsigned = unsignedToken({ role: 'service_role', exp: 9999999999 });
    expect(await refused('realtime:a', { access_token: unsigned })).toBe(
      'JwtSignatureError: Failed to validate JWT signature',
    );
    const noExp = await signToken(
      server.jwtSecret,
      { role: 'authenticated' },
      { noTimes: true, header: { alg: 'HS256' } },
    );
    expect(await refused('realtime:a', { access_token: noExp })).toBe(
      'InvalidJWTToken: Fields `role` and `exp` are required in JWT',
    );
    const superuser = await signToken(server.jwtSecret, { role: 'postgres' });
    expect(await refused('realtime:a', { access_token: superuser })).toBe(
      'Unauthorized: The role "postgres" is not a role of this project',
    );

    const service = await open(server, { apikey: server.serviceRoleKey });
    expect((await service.join('realtime:secret', { config: { private: true } })).reply.payload.status).toBe(
      'ok',
    );
  });

  it('replaces a channel joined twice, closing the first join', async () => {
    const socket = await open();
    const first = await socket.join('realtime:twice');
    const second = await socket.join('realtime:twice');
    expect(second.reply.payload.status).toBe('ok');
    expect(socket.decoded).toContainEqual(
      expect.objectContaining({
        event: 'phx_close',
        topic: 'realtime:twice',
        joinRef: first.ref,
        ref: first.ref,
      }),
    );
  });

  it('closes a channel whose token update is not valid, with a system message', async () => {
    const socket = await open();
    const { ref } = await socket.join('realtime:token');
    socket.push('realtime:token', 'access_token', { access_token: 'garbage' }, ref);
    const system = await socket.event(
      (message) => message.event === 'system' && message.topic === 'realtime:token',
    );
    expect(system.payload).toEqual({
      extension: 'system',
      status: 'error',
      message: 'The token provided is not a valid JWT',
      channel: 'token',
    });
    await socket.event((message) => message.event === 'phx_close' && message.topic === 'realtime:token');
    const after = socket.push(
      'realtime:token',
      'broadcast',
      { type: 'broadcast', event: 'x', payload: {} },
      ref,
    );
    expect((await socket.reply(after)).payload.response.reason).toBe('unmatched topic');
  });
});

describe('failures', () => {
  it('error only the channel whose handling failed (phx_error, as a crashed Phoenix channel)', async () => {
    const socket = await open();
    const { ref: broken } = await socket.join('realtime:broken', { config: { presence: { key: 'k' } } });
    const { ref: fine } = await socket.join('realtime:fine', { config: { broadcast: { self: true } } });
    // The database refuses presence for a moment.
    await server.db.exec('alter table realtime.presences rename to presences_gone');
    try {
      socket.push(
        'realtime:broken',
        'presence',
        { type: 'presence', event: 'track', payload: { a: 1 } },
        broken,
      );
      const error = await socket.event((message) => message.event === 'phx_error');
      expect(error).toEqual({
        joinRef: broken,
        ref: broken,
        topic: 'realtime:broken',
        event: 'phx_error',
        payload: {},
      });
    } finally {
      await server.db.exec('alter table realtime.presences_gone rename to presences');
    }
    socket.push('realtime:fine', 'broadcast', { type: 'broadcast', event: 'still', payload: {} }, fine);
    await socket.event((message) => message.event === 'broadcast' && message.payload.event === 'still');
    // realtime-js joins again after phx_error; that works.
    expect((await socket.join('realtime:broken')).reply.payload.status).toBe('ok');
  });
});

describe('the binary broadcast frames of vsn 2.0.0', () => {
  it('reach 2.0.0 clients as binary frames and 1.0.0 clients as JSON', async () => {
    const sender = await open();
    const v2 = await open();
    const v1 = await open(server, { vsn: '1.0.0' });
    const { ref: joinRef } = await sender.join('realtime:binary', { config: { broadcast: { ack: true } } });
    await v2.join('realtime:binary');
    await v1.join('realtime:binary');

    sender.sendRaw(
      userBroadcastFrame(joinRef, '90', 'realtime:binary', 'cursor', Buffer.from('{"x":1}'), 'json'),
    );
    expect((await sender.reply('90')).payload).toEqual({ status: 'ok', response: {} });
    await waitFor(() => v2.binary.length === 1);
    expect(decodeUserBroadcast(v2.binary[0] as Buffer)).toMatchObject({
      kind: 4,
      topic: 'realtime:binary',
      event: 'cursor',
      encoding: 'json',
    });
    expect(JSON.parse(String(decodeUserBroadcast(v2.binary[0] as Buffer).payload))).toEqual({ x: 1 });
    const json = await v1.event((message) => message.event === 'broadcast');
    expect(json).toEqual({
      joinRef: null,
      ref: null,
      topic: 'realtime:binary',
      event: 'broadcast',
      payload: { type: 'broadcast', event: 'cursor', payload: { x: 1 } },
    });

    sender.sendRaw(
      userBroadcastFrame(joinRef, '91', 'realtime:binary', 'blob', Buffer.from([0, 1, 2, 255]), 'binary'),
    );
    await sender.reply('91');
    await waitFor(() => v2.binary.length === 2);
    expect([...decodeUserBroadcast(v2.binary[1] as Buffer).payload]).toEqual([0, 1, 2, 255]);

    sender.sendRaw(userBroadcastFrame(joinRef, '92', 'realtime:binary', 'bad', Buffer.from('{oops'), 'json'));
    expect((await sender.reply('92')).payload.response.reason).toBe(
      'InvalidBroadcastPayload: the payload is not valid JSON',
    );
    sender.sendRaw(userBroadcastFrame(joinRef, '93', 'realtime:elsewhere', 'x', Buffer.from('{}'), 'json'));
    expect((await sender.reply('93')).payload.response.reason).toBe('unmatched topic');
    // The 1.0.0 client cannot represent the binary payload: it only ever got the JSON one.
    await sleep(100);
    expect(v1.decoded.filter((message) => message.event === 'broadcast')).toHaveLength(1);
  });
});

describe('limits', () => {
  it('answer an oversized message with an error, and close a connection whose frame is far too large', async () => {
    const big = await open();
    const bystander = await open();
    const { ref } = await big.join('realtime:sizes', { config: { broadcast: { ack: true } } });
    await bystander.join('realtime:sizes');

    const tooLarge = big.push(
      'realtime:sizes',
      'broadcast',
      { type: 'broadcast', event: 'x', payload: { data: 'x'.repeat(5000) } },
      ref,
    );
    expect((await big.reply(tooLarge)).payload).toEqual({
      status: 'error',
      response: { reason: 'PayloadSizeExceeded: Payload size exceeded, the limit is 4 KB' },
    });
    big.sendRaw(userBroadcastFrame(ref, '77', 'realtime:sizes', 'x', Buffer.alloc(5000), 'binary'));
    expect((await big.reply('77')).payload.response.reason).toMatch(/^PayloadSizeExceeded/);
    const presence = big.push(
      'realtime:sizes',
      'presence',
      { type: 'presence', event: 'track', payload: { d: 'y'.repeat(5000) } },
      ref,
    );
    expect((await big.reply(presence)).payload.response.reason).toMatch(/^PayloadSizeExceeded/);
    expect((await big.heartbeat()).payload.status).toBe('ok');

    big.sendRaw(JSON.stringify([ref, '78', 'realtime:sizes', 'broadcast', { payload: 'z'.repeat(200_000) }]));
    expect((await big.closedWith()).code).toBe(1009);

    // The other client saw none of it and works as before.
    const sender = await open();
    const { ref: senderRef } = await sender.join('realtime:sizes');
    sender.push(
      'realtime:sizes',
      'broadcast',
      { type: 'broadcast', event: 'fine', payload: { ok: true } },
      senderRef,
    );
    await bystander.event((message) => message.event === 'broadcast' && message.payload.event === 'fine');
    expect(bystander.decoded.filter((message) => message.event === 'broadcast')).toHaveLength(1);
  });

  it('close a flooding client’s channel with Supabase’s message, without touching other clients', async () => {
    const flooder = await open();
    const calm = await open();
    const { ref } = await flooder.join('realtime:flood');
    const calmJoin = await calm.join('realtime:flood', { config: { broadcast: { self: true } } });
    for (let i = 0; i < 60; i++) {
      flooder.push('realtime:flood', 'broadcast', { type: 'broadcast', event: 'spam', payload: { i } }, ref);
    }
    const heartbeat = flooder.push('phoenix', 'heartbeat', {});
    const system = await flooder.event(
      (message) => message.event === 'system' && message.topic === 'realtime:flood',
    );
    expect(system.payload).toEqual({
      extension: 'system',
      status: 'error',
      message: 'Too many messages per second',
      channel: 'flood',
    });
    await flooder.event((message) => message.event === 'phx_close' && message.topic === 'realtime:flood');
    expect((await flooder.reply(heartbeat)).payload.response.reason).toBe(
      'MessagePerSecondRateLimitReached: Too many messages per second',
    );
    await sleep(1100);
    expect((await flooder.heartbeat()).payload.status).toBe('ok');

    // The calm client got at most the flooder's allowance, and is itself unaffected.
    expect(calm.decoded.filter((message) => message.payload?.event === 'spam').length).toBeLessThanOrEqual(
      21,
    );
    calm.push('realtime:flood', 'broadcast', { type: 'broadcast', event: 'calm', payload: {} }, calmJoin.ref);
    await calm.event((message) => message.event === 'broadcast' && message.payload.event === 'calm');

    const torrent = await open();
    for (let i = 0; i < 400; i++) torrent.push('phoenix', 'heartbeat', {});
    expect(await torrent.closedWith()).toEqual({ code: 1008, reason: 'Too many messages per second' });
    expect((await calm.heartbeat()).payload.status).toBe('ok');
  });

  it('cap the channels of one connection', async () => {
    const socket = await open();
    for (const name of ['one', 'two', 'three']) {
      expect((await socket.join(`realtime:${name}`)).reply.payload.status).toBe('ok');
    }
    expect((await socket.join('realtime:four')).reply.payload.response.reason).toBe(
      'ChannelRateLimitReached: Too many channels',
    );
    const leave = socket.push('realtime:one', 'phx_leave', {});
    await socket.reply(leave);
    expect((await socket.join('realtime:four')).reply.payload.status).toBe('ok');
  });

  it('cap the connections of a server process, telling the one too many why', async () => {
    const a = await open(limited);
    const b = await open(limited);
    await a.join('realtime:lobby');
    await b.join('realtime:lobby');
    const c = await open(limited);
    expect((await c.join('realtime:lobby')).reply.payload.response.reason).toBe(
      'ConnectionRateLimitReached: Too many connected users',
    );
    expect(await c.closedWith()).toEqual({ code: 1013, reason: 'Too many connected users' });
    expect((await a.heartbeat()).payload.status).toBe('ok');
    b.close();
    await b.closedWith();
    await sleep(50);
    const d = await open(limited);
    expect((await d.join('realtime:lobby')).reply.payload.status).toBe('ok');
  });

  it('close connections that stop sending heartbeats', async () => {
    const quiet = await open(limited);
    const closed = await quiet.closedWith(8000);
    expect(closed).toEqual({ code: 1001, reason: 'No heartbeat received' });
  });
});
