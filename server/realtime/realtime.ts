import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import type { RealtimeConfig } from '../config.ts';
import type { AppContext } from '../context.ts';
import type { JwtVerifier } from '../http/jwt.ts';
import { collectRealtime } from '../metrics.ts';
import { Bus, type BusMessage } from './bus.ts';
import { ChangeFeed } from './change-feed.ts';
import type { Channel } from './channel.ts';
import { CLOSE_GOING_AWAY, Connection } from './connection.ts';
import { type DatabaseBroadcast, RealtimeDb } from './db.ts';
import { systemMessages } from './errors.ts';
import { startServiceTimers, type Timers } from './jobs.ts';
import { leaveDiffs, type PresenceDiff } from './presence.ts';
import {
  encodeRaw,
  encodeUserBroadcast,
  type JsonObject,
  type PayloadEncoding,
  VSN_1,
  VSN_2,
  type Vsn,
} from './protocol/serializer.ts';
import { SeenIds } from './seen.ts';

/** Connections beyond the limit are still answered (with ConnectionRateLimitReached), up to this many. */
const OVER_LIMIT_GRACE = 100;
/** Every so many heartbeats, the embedded database reclaims the space of delivered changes. */
const VACUUM_EVERY_HEARTBEATS = 12;

/** What the realtime routes are built from (decision 088). */
export interface RealtimeDeps {
  service: RealtimeService;
}

/** The realtime service of one server process, started: change feed, bus and heartbeat running. */
export async function createRealtime(ctx: AppContext): Promise<RealtimeDeps> {
  const service = new RealtimeService(ctx);
  await service.start();
  return { service };
}

/**
 * The realtime service of one server process (domain logic, no HTTP): its connections, the channels
 * joined on each topic, the change feed and the bus to the other processes of the same database.
 */
export class RealtimeService {
  readonly nodeId = randomUUID();
  readonly rdb: RealtimeDb;
  readonly feed: ChangeFeed<Channel>;
  readonly bus: Bus;
  readonly config: RealtimeConfig;
  readonly jwt: JwtVerifier;
  readonly log: FastifyBaseLogger;
  stopping = false;
  private readonly topics = new Map<string, Set<Channel>>();
  private readonly connections = new Set<Connection>();
  private accepted = 0;
  private timers: Timers | undefined;
  private beating = false;
  private beats = 0;
  private unlistenRevoked: (() => Promise<void>) | undefined;
  private unlistenMessages: (() => Promise<void>) | undefined;
  /** Broadcasts from the database, handled in arrival order (a stored one is read first). */
  private databaseMessages: Promise<void> = Promise.resolve();
  /** Accounts revoked in the last minute, for joins whose account check raced the notice. */
  private readonly revoked = new Map<string, number>();
  /** Broadcasts from the database handled lately, by id (each is delivered once). */
  private readonly seenBroadcasts = new SeenIds();
  /** The database's clock at start: broadcasts from the database before it are not for us. */
  private messagesSince = '';
  private stopResets: (() => void) | undefined;

  constructor(ctx: AppContext) {
    this.config = ctx.config.realtime;
    this.jwt = ctx.jwt;
    this.log = ctx.log;
    this.rdb = new RealtimeDb(ctx.db);
    this.feed = new ChangeFeed<Channel>(
      this.rdb,
      this.nodeId,
      this.config,
      this.log,
      (channel, ids, payload) => channel.pushChange(ids, payload),
    );
    this.bus = new Bus(this.rdb, this.nodeId, (message) => this.onBus(message), this.log);
  }

  async start(): Promise<void> {
    await this.rdb.syncTriggers();
    await this.feed.start();
    await this.bus.start();
    this.unlistenRevoked = await this.rdb.listen('auth_account_revoked', (payload) =>
      this.onAccountRevoked(payload),
    );
    this.unlistenMessages = await this.rdb.listen('realtime_messages', (note) => {
      this.databaseMessages = this.databaseMessages.then(() => this.onDatabaseMessage(note));
    });
    this.messagesSince = await this.rdb.messagesClock();
    // Notifications lost while the listening connection was down (decision 172): the change feed
    // reads after its cursor (its own handler), the bus its kept messages (its own handler), and
    // here the broadcasts from the database kept since start and the accounts of open channels.
    this.stopResets = this.rdb.onListenerReset(() => {
      this.databaseMessages = this.databaseMessages.then(() => this.catchUpBroadcasts());
      void this.recheckAccounts();
    });
    const service = this;
    collectRealtime({
      get connections() {
        return service.connections.size;
      },
      get channels() {
        let channels = 0;
        for (const set of service.topics.values()) channels += set.size;
        return channels;
      },
      get topics() {
        return service.topics.size;
      },
      lag: () => this.rdb.changeLag(this.feed.position),
    });
    this.timers = startServiceTimers(
      this.config,
      () => void this.heartbeat(),
      () => this.sweepIdle(),
    );
  }

  /** Closes every connection (clients reconnect elsewhere), then leaves the database tidy. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.timers?.stop();
    this.stopResets?.();
    collectRealtime(undefined);
    const connections = [...this.connections];
    for (const connection of connections) connection.ws.close(CLOSE_GOING_AWAY, 'Server shutting down');
    await Promise.all(connections.map((connection) => connection.close()));
    await this.unlistenRevoked?.().catch(() => {});
    await this.unlistenMessages?.().catch(() => {});
    await this.databaseMessages;
    await this.feed.stop();
    await this.bus.stop();
    await this.rdb.unregisterNode(this.nodeId).catch((error) => {
      this.log.warn({ err: error }, 'realtime: could not unregister this process');
    });
  }

  // ------------------------------------------------------------------------------------- connections

  /** Whether one more websocket may be opened (beyond the limit, some are opened to be told so). */
  canAccept(): boolean {
    return !this.stopping && this.connections.size < this.config.maxConnections + OVER_LIMIT_GRACE;
  }

  accept(ws: WebSocket, vsn: Vsn, apikey: string): Connection {
    const overLimit = this.accepted >= this.config.maxConnections;
    const connection = new Connection(ws, this, vsn, apikey, overLimit);
    if (!overLimit) this.accepted++;
    this.connections.add(connection);
    return connection;
  }

  removeConnection(connection: Connection): void {
    if (!this.connections.delete(connection)) return;
    if (!connection.overLimit) this.accepted--;
  }

  private sweepIdle(): void {
    const now = performance.now();
    for (const connection of this.connections) {
      if (now - connection.lastSeen > this.config.idleTimeoutMs) {
        connection.ws.close(CLOSE_GOING_AWAY, 'No heartbeat received');
        void connection.close();
      }
    }
  }

  /**
   * An account was deleted or suspended (NOTIFY `auth_account_revoked` from a trigger on
   * `auth.users`, at commit, heard by every process): the channels its tokens opened on this process
   * are closed now, with a `system` message saying why, instead of when the token expires (decision
   * 104). Rejoining is refused by the join's own account check.
   */
  private onAccountRevoked(payload: string): void {
    let notice: { u?: unknown; r?: unknown };
    try {
      notice = JSON.parse(payload) as { u?: unknown; r?: unknown };
    } catch {
      return;
    }
    if (typeof notice.u !== 'string') return;
    const message =
      notice.r === 'suspended' ? systemMessages.accountSuspended() : systemMessages.accountGone();
    const now = Date.now();
    for (const [userId, at] of this.revoked) if (now - at > 60_000) this.revoked.delete(userId);
    this.revoked.set(notice.u, now);
    for (const channels of this.topics.values()) {
      for (const channel of [...channels]) {
        if (channel.actsFor(notice.u)) void channel.shutdown(message);
      }
    }
  }

  /** Whether a user's account was deleted or suspended in the last minute. */
  revokedRecently(userId: string): boolean {
    const at = this.revoked.get(userId);
    return at !== undefined && Date.now() - at <= 60_000;
  }

  // ---------------------------------------------------------------------------------------- topics

  attach(channel: Channel): void {
    let set = this.topics.get(channel.topicKey);
    if (!set) {
      set = new Set();
      this.topics.set(channel.topicKey, set);
    }
    set.add(channel);
  }

  detach(channel: Channel): void {
    const set = this.topics.get(channel.topicKey);
    if (!set) return;
    set.delete(channel);
    if (set.size === 0) this.topics.delete(channel.topicKey);
  }

  /** A JSON broadcast (`{type: 'broadcast', event, payload}` as JSON text) to a topic, everywhere. */
  broadcastJson(topicKey: string, json: string, exclude: Channel | null): void {
    this.deliverJson(topicKey, json, exclude);
    this.bus.publish({ k: 'b', t: topicKey, p: json });
  }

  /** A broadcast that arrived as a binary frame (or through the single-message HTTP endpoint). */
  broadcastUser(
    topicKey: string,
    userEvent: string,
    encoding: PayloadEncoding,
    payload: Buffer,
    metadata: JsonObject | null,
    exclude: Channel | null,
  ): void {
    this.deliverUser(topicKey, userEvent, encoding, payload, metadata, exclude);
    this.bus.publish({
      k: 'u',
      t: topicKey,
      e: userEvent,
      f: encoding,
      p: payload.toString('base64'),
      m: metadata,
    });
  }

  presenceDiff(topicKey: string, diff: PresenceDiff): void {
    this.deliverPresence(topicKey, JSON.stringify(diff));
    this.bus.publish({ k: 'p', t: topicKey, d: diff });
  }

  private deliverJson(topicKey: string, json: string, exclude: Channel | null): void {
    const channels = this.topics.get(topicKey);
    if (!channels) return;
    const frames = new Map<Vsn, string>();
    for (const channel of channels) {
      if (channel === exclude || channel.state !== 'joined' || !channel.readsBroadcast) continue;
      let frame = frames.get(channel.conn.vsn);
      if (frame === undefined) {
        frame = encodeRaw(channel.conn.vsn, null, null, channel.topic, 'broadcast', json);
        frames.set(channel.conn.vsn, frame);
      }
      channel.send(frame);
    }
  }

  private deliverUser(
    topicKey: string,
    userEvent: string,
    encoding: PayloadEncoding,
    payload: Buffer,
    metadata: JsonObject | null,
    exclude: Channel | null,
  ): void {
    const channels = this.topics.get(topicKey);
    if (!channels) return;
    // A broadcast from the database carries its row's id: a channel that replayed it skips it.
    const id = typeof metadata?.id === 'string' ? metadata.id : undefined;
    let binary: Buffer | null | undefined;
    let text: string | null | undefined;
    for (const channel of channels) {
      if (channel === exclude || !channel.readsBroadcast) continue;
      // A joining channel asking for replay holds what arrives until the replayed messages are out.
      if (channel.state !== 'joined' && !(channel.state === 'joining' && channel.replaying)) continue;
      if (id !== undefined && channel.replayed(id)) continue;
      if (channel.conn.vsn === VSN_2) {
        if (binary === undefined)
          binary = encodeUserBroadcast(channel.topic, userEvent, encoding, payload, metadata);
        if (binary) channel.send(binary, id);
        else {
          text ??= this.userBroadcastAsJson(channel.topic, userEvent, encoding, payload, metadata, VSN_2);
          if (text) channel.send(text, id);
        }
      } else {
        // 1.0.0 clients cannot represent binary payloads (Supabase skips them too).
        const v1 = this.userBroadcastAsJson(channel.topic, userEvent, encoding, payload, metadata, VSN_1);
        if (v1) channel.send(v1, id);
      }
    }
  }

  /**
   * A stored broadcast replayed to one channel right after its join reply (broadcast replay, decision
   * 234), framed as a live one with `meta: {replayed: true, id}`; binary payloads are skipped for
   * 1.0.0 clients, as Supabase skips them.
   */
  frameReplayed(channel: Channel, message: DatabaseBroadcast): string | Buffer | null {
    const binary = message.binary !== null;
    const payload = binary
      ? Buffer.from(message.binary ?? '', 'base64')
      : Buffer.from(message.payload ?? 'null');
    const encoding: PayloadEncoding = binary ? 'binary' : 'json';
    const meta = { replayed: true, id: message.id };
    if (channel.conn.vsn === VSN_2) {
      return (
        encodeUserBroadcast(channel.topic, message.event, encoding, payload, meta) ??
        this.userBroadcastAsJson(channel.topic, message.event, encoding, payload, meta, VSN_2)
      );
    }
    return this.userBroadcastAsJson(channel.topic, message.event, encoding, payload, meta, VSN_1);
  }

  private userBroadcastAsJson(
    topic: string,
    userEvent: string,
    encoding: PayloadEncoding,
    payload: Buffer,
    metadata: JsonObject | null,
    vsn: Vsn,
  ): string | null {
    if (encoding !== 'json') return null;
    const body = `{"type":"broadcast","event":${JSON.stringify(userEvent)},"payload":${payload.toString('utf8')}${
      metadata ? `,"meta":${JSON.stringify(metadata)}` : ''
    }}`;
    return encodeRaw(vsn, null, null, topic, 'broadcast', body);
  }

  private deliverPresence(topicKey: string, json: string): void {
    const channels = this.topics.get(topicKey);
    if (!channels) return;
    for (const channel of channels) channel.presenceDiffJson(json);
  }

  private onBus(message: BusMessage): void {
    if (message.k === 'b') this.deliverJson(message.t, message.p, null);
    else if (message.k === 'u') {
      this.deliverUser(message.t, message.e, message.f, Buffer.from(message.p, 'base64'), message.m, null);
    } else if (message.k === 'p') this.deliverPresence(message.t, JSON.stringify(message.d));
  }

  /**
   * A row of realtime.messages committed with an event (`realtime.send`, `broadcast_changes`),
   * announced by its trigger to every process (definitions/messages.sql): delivered here to this
   * process's subscribers of its topic, as Supabase delivers it: a broadcast whose `meta` carries
   * the row's id. Over the size limit, it is dropped (as Supabase does).
   */
  private async onDatabaseMessage(note: string): Promise<void> {
    try {
      const newline = note.indexOf('\n');
      const header = JSON.parse(newline < 0 ? note : note.slice(0, newline)) as {
        i: string;
        t?: string;
        e?: string;
        p?: boolean;
        f?: 'json' | 'binary';
        stored?: boolean;
      };
      if (!this.seenBroadcasts.add(header.i)) return;
      let message: DatabaseBroadcast | null;
      if (header.stored) {
        message = await this.rdb.readBroadcast(header.i);
      } else {
        const body = newline < 0 ? '' : note.slice(newline + 1);
        message = {
          id: header.i,
          topic: String(header.t),
          event: String(header.e),
          private: header.p === true,
          payload: header.f === 'binary' ? null : body,
          binary: header.f === 'binary' ? body : null,
        };
      }
      if (!message) return;
      const binary = message.binary !== null;
      const payload = binary
        ? Buffer.from(message.binary ?? '', 'base64')
        : Buffer.from(message.payload ?? 'null');
      if (payload.length > this.config.maxPayloadBytes) {
        this.log.warn(
          { topic: message.topic },
          'realtime: a broadcast from the database exceeds the payload limit',
        );
        return;
      }
      this.deliverUser(
        `${message.private ? 'private' : 'public'}:${message.topic}`,
        message.event,
        binary ? 'binary' : 'json',
        payload,
        { id: message.id },
        null,
      );
    } catch (error) {
      this.log.warn({ err: error }, 'realtime: ignored an unreadable broadcast from the database');
    }
  }

  /** After a lost listening connection: the broadcasts from the database not heard of, in order. */
  private async catchUpBroadcasts(): Promise<void> {
    try {
      for (const id of await this.rdb.broadcastsSince(this.messagesSince)) {
        if (this.seenBroadcasts.has(id)) continue;
        await this.onDatabaseMessage(JSON.stringify({ i: id, stored: true }));
      }
    } catch (error) {
      this.log.error({ err: error }, 'realtime: could not read the broadcasts sent while not listening');
    }
  }

  /**
   * After a lost listening connection: a revocation notice may be among what was lost, so the
   * accounts of this process's signed-in channels are asked again, and those gone or suspended are
   * treated as if the notice had arrived.
   */
  private async recheckAccounts(): Promise<void> {
    const users = new Set<string>();
    for (const connection of this.connections) {
      for (const channel of connection.channels.values()) {
        const sub = channel.userId;
        if (sub) users.add(sub);
      }
    }
    for (const userId of users) {
      try {
        const status = await this.rdb.accountStatus(userId);
        if (status === 'ok') continue;
        this.onAccountRevoked(
          JSON.stringify({ u: userId, r: status === 'suspended' ? 'suspended' : 'deleted' }),
        );
      } catch (error) {
        this.log.error(
          { err: error },
          'realtime: could not check an account after a lost listening connection',
        );
        return;
      }
    }
  }

  // -------------------------------------------------------------------------------------- heartbeat

  /** A process that missed this many heartbeats is taken for dead (30 s with the defaults). */
  private get deadAfterMs(): number {
    return this.config.heartbeatIntervalMs * 6;
  }

  private async heartbeat(): Promise<void> {
    if (this.beating || this.stopping) return;
    this.beating = true;
    try {
      const leaves = await this.rdb.heartbeat(
        this.nodeId,
        this.deadAfterMs,
        this.config.heartbeatIntervalMs * 2,
        this.config.replayRetentionHours,
      );
      if (leaves === null) {
        await this.recover();
      } else {
        for (const [topicKey, diff] of leaveDiffs(leaves)) this.presenceDiff(topicKey, diff);
      }
      await this.rdb.syncTriggers();
      if (this.rdb.mode === 'embedded' && ++this.beats % VACUUM_EVERY_HEARTBEATS === 0)
        await this.rdb.vacuum();
    } catch (error) {
      this.log.error({ err: error }, 'realtime: heartbeat failed');
    } finally {
      this.beating = false;
    }
  }

  /**
   * The other processes took this one for dead (it stalled) and removed its rows: record this
   * process, its subscriptions and its presences again.
   */
  private async recover(): Promise<void> {
    this.log.warn('realtime: this process was taken for dead; registering it again');
    await this.feed.reregister();
    for (const connection of this.connections) {
      for (const channel of connection.channels.values()) {
        if (channel.state !== 'joined') continue;
        await channel.resubscribe();
        await channel.retrack();
      }
    }
  }
}
