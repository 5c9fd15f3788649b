import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type RealtimeChannel, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { loadConfig } from '#server/config.ts';
import type { Database } from '#server/db/driver.ts';
import { startServer } from '#server/start.ts';
import { WEB_DIST } from '#server/web-build.ts';
import type { TestServer } from '#tests/support/test-server.ts';
import { userToken as mintUserToken } from '#tests/support/tokens.ts';

/** Helpers shared by the realtime tests: tokens, users, supabase-js clients, raw sockets. */

/** What tests read out of messages and rows: inspected field by field, asserted with expect. */
// biome-ignore lint/suspicious/noExplicitAny: payloads under test are examined loosely, then asserted.
export type Loose = any;
export type Row = Record<string, Loose>;

export interface Peer {
  url: string;
  anonKey: string;
  serviceRoleKey: string;
  jwtSecret: string;
}

/**
 * An account row inserted straight into auth.users: these tests work below the auth service (the
 * change feed, channel authorisation) and often on a second server of their own.
 */
export async function insertAccount(db: Database, email: string): Promise<string> {
  const { rows } = await db.query<{ id: string }>('insert into auth.users (email) values ($1) returning id', [
    email,
  ]);
  return rows[0]?.id as string;
}

export function userToken(server: Peer, userId: string, expiresInSeconds = 3600): Promise<string> {
  return mintUserToken(server.jwtSecret, userId, { expiresIn: expiresInSeconds });
}

const clients: SupabaseClient[] = [];

/** A supabase-js client as the web app makes it; with a token, realtime acts as that user. */
export async function realtimeClient(
  server: Peer,
  token?: string,
  options: { vsn?: '1.0.0' | '2.0.0'; key?: string } = {},
): Promise<SupabaseClient> {
  const client = createClient(server.url, options.key ?? server.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: {
      transport: WebSocket as never,
      ...(options.vsn ? { vsn: options.vsn } : {}),
      // Tests wait on purpose; keep the client from rejoining on its own while they do.
      timeout: 10_000,
    },
  });
  if (token) await client.realtime.setAuth(token);
  clients.push(client);
  return client;
}

export async function closeClients(): Promise<void> {
  await Promise.all(clients.splice(0).map((client) => client.removeAllChannels().catch(() => {})));
}

/** Subscribes and resolves with the first status other than the transient ones. */
export function subscribed(channel: RealtimeChannel): Promise<{ status: string; error?: Error }> {
  return new Promise((resolve) => {
    channel.subscribe((status, error) => resolve({ status, ...(error ? { error } : {}) }));
  });
}

export async function waitFor<T>(
  check: () => T | undefined | false,
  { timeout = 5000, interval = 5, what = 'condition' } = {},
): Promise<T> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}

/** Retries an async assertion until it passes (or the time is up, then its last error is thrown). */
export async function eventually<T>(assertion: () => Promise<T>, timeout = 5000): Promise<T> {
  const deadline = Date.now() + timeout;
  for (;;) {
    try {
      return await assertion();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A second server on the same PostgreSQL database as `first` (another process as far as the database
 * is concerned: its own pool and its own LISTEN connection), with the same keys.
 */
export async function startSecondServer(first: TestServer, env: Record<string, string> = {}) {
  const databaseUrl = first.server.ctx.config.databaseUrl;
  if (!databaseUrl) throw new Error('a second server needs PostgreSQL');
  const dataDir = await mkdtemp(join(tmpdir(), 'highgrade-second-'));
  const server = await startServer(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      DATABASE_URL: databaseUrl,
      JWT_SECRET: first.jwtSecret,
      ANON_KEY: first.anonKey,
      SERVICE_ROLE_KEY: first.serviceRoleKey,
      ...env,
    }),
    { logger: false, webDir: process.env.HIGHGRADE_WEB_DIR ?? WEB_DIST },
  );
  return {
    url: server.url,
    anonKey: first.anonKey,
    serviceRoleKey: first.serviceRoleKey,
    jwtSecret: first.jwtSecret,
    dataDir,
    server,
    async close() {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A raw Phoenix socket, for what supabase-js never sends (malformed frames, floods, binary frames). */
export class RawSocket {
  readonly messages: unknown[] = [];
  readonly binary: Buffer[] = [];
  closed: { code: number; reason: string } | undefined;
  private ref = 0;

  private constructor(
    readonly ws: WebSocket,
    readonly vsn: '1.0.0' | '2.0.0',
  ) {
    ws.on('message', (data, isBinary) => {
      if (isBinary) this.binary.push(data as Buffer);
      else this.messages.push(JSON.parse(String(data)));
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: String(reason) };
    });
  }

  static async open(
    server: Peer,
    options: { vsn?: '1.0.0' | '2.0.0'; apikey?: string | null } = {},
  ): Promise<RawSocket> {
    const vsn = options.vsn ?? '2.0.0';
    const url = new URL('/realtime/v1/websocket', server.url.replace(/^http/, 'ws'));
    if (options.apikey !== null) url.searchParams.set('apikey', options.apikey ?? server.anonKey);
    url.searchParams.set('vsn', vsn);
    const ws = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return new RawSocket(ws, vsn);
  }

  /** Fails the upgrade: resolves with the HTTP status and body the server answered with. */
  static async refused(url: string): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.on('unexpected-response', (_request, response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => {
          body += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      });
      ws.on('open', () => reject(new Error('the upgrade was accepted')));
      ws.on('error', () => {});
    });
  }

  nextRef(): string {
    this.ref += 1;
    return String(this.ref);
  }

  sendRaw(data: string | Buffer): void {
    this.ws.send(data);
  }

  push(
    topic: string,
    event: string,
    payload: unknown,
    joinRef: string | null = null,
    ref = this.nextRef(),
  ): string {
    if (this.vsn === '2.0.0') this.ws.send(JSON.stringify([joinRef, ref, topic, event, payload]));
    else this.ws.send(JSON.stringify({ topic, event, payload, ref, join_ref: joinRef }));
    return ref;
  }

  /** Messages as {joinRef, ref, topic, event, payload}, whatever the wire format. */
  get decoded(): {
    joinRef: string | null;
    ref: string | null;
    topic: string;
    event: string;
    payload: Loose;
  }[] {
    return this.messages.map((message) => {
      if (Array.isArray(message)) {
        const [joinRef, ref, topic, event, payload] = message;
        return { joinRef, ref, topic, event, payload };
      }
      const { join_ref, ref, topic, event, payload } = message as Row;
      return { joinRef: join_ref ?? null, ref, topic, event, payload };
    });
  }

  async reply(ref: string, timeout = 5000) {
    return waitFor(
      () => this.decoded.find((message) => message.ref === ref && message.event === 'phx_reply'),
      {
        timeout,
        what: `the reply to ${ref}`,
      },
    );
  }

  async event(predicate: (message: RawSocket['decoded'][number]) => boolean, timeout = 5000) {
    return waitFor(() => this.decoded.find(predicate), { timeout, what: 'a message' });
  }

  async join(topic: string, payload: Record<string, unknown> = {}) {
    const ref = this.nextRef();
    this.push(topic, 'phx_join', { config: {}, ...payload }, ref, ref);
    return { ref, reply: await this.reply(ref) };
  }

  async heartbeat() {
    const ref = this.push('phoenix', 'heartbeat', {});
    return this.reply(ref);
  }

  close(): void {
    this.ws.close();
  }

  async closedWith(timeout = 5000) {
    return waitFor(() => this.closed, { timeout, what: 'the socket to close' });
  }
}

/** realtime-js' kind-3 binary frame: a broadcast whose payload travels as bytes. */
export function userBroadcastFrame(
  joinRef: string,
  ref: string,
  topic: string,
  event: string,
  payload: Buffer,
  encoding: 'json' | 'binary',
): Buffer {
  const parts = [joinRef, ref, topic, event, ''].map((text) => Buffer.from(text));
  const header = Buffer.from([3, ...parts.map((part) => part.length), encoding === 'json' ? 1 : 0]);
  return Buffer.concat([header, ...parts, payload]);
}

/** Decodes realtime-js' kind-4 binary frame (a broadcast delivered as bytes). */
export function decodeUserBroadcast(frame: Buffer) {
  const topicSize = frame[1] as number;
  const eventSize = frame[2] as number;
  const metaSize = frame[3] as number;
  const encoding = frame[4] === 1 ? 'json' : 'binary';
  let offset = 5;
  const topic = frame.toString('utf8', offset, offset + topicSize);
  offset += topicSize;
  const event = frame.toString('utf8', offset, offset + eventSize);
  offset += eventSize + metaSize;
  return { kind: frame[0], topic, event, encoding, payload: frame.subarray(offset) };
}
