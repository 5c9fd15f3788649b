import { randomUUID } from 'node:crypto';
import type { Connection } from './connection.ts';
import type { DatabaseBroadcast, SubscriptionSpec } from './db.ts';
import { reasons, systemMessages } from './errors.ts';
import { parseFilter } from './filters.ts';
import { type Identity, type IdentityResult, isOpaqueApiKey, verifyIdentity } from './identity.ts';
import { newPresenceRef, presenceState, trackDiffs } from './presence.ts';
import { encodeRaw, type JsonObject, type Message, type UserBroadcastPush } from './protocol/serializer.ts';

const MAX_TOPIC_BYTES = 255;
/** postgres_changes bindings one channel may ask for (each is a row the database checks per change). */
const MAX_BINDINGS = 100;
/** Messages held back while a join is in flight (they are sent right after its reply). */
const MAX_BUFFERED_WHILE_JOINING = 10_000;
/** setTimeout's ceiling; longer token lifetimes are re-checked when it fires. */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface Binding {
  /** Numeric id echoed in the join reply and in every change's `ids` (realtime-js matches on it). */
  id: number;
  /** The row in realtime.subscriptions. */
  subscriptionId: string;
}

type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Supabase's FlexibleBoolean: true/false or their text. */
function flag(value: unknown, fallback: boolean): boolean {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  return fallback;
}

/** FNV-1a of the binding's parameters: equal parameters get equal ids, as Supabase's phash2 does. */
function bindingId(params: JsonObject): number {
  const text = JSON.stringify(params);
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export interface JoinConfig {
  self: boolean;
  ack: boolean;
  presenceEnabled: boolean;
  presenceKey: string;
  private: boolean;
  postgresChanges: JsonObject[];
  token: string | null;
  /**
   * Broadcast replay (`broadcast.replay`, private channels only): the stored broadcasts since `since`
   * (Unix ms), at most `limit`; 'invalid' when asked with values Supabase refuses; null when not asked.
   */
  replay: { since: number; limit: number } | 'invalid' | null;
}

/** Supabase Realtime's hard limit on replayed messages (Realtime.Messages @hard_limit). */
const MAX_REPLAY = 25;

/**
 * Supabase's replay parameters: integers, `since` required (ms, a representable date), `limit`
 * defaulting to 25 and kept within 1–25.
 */
function parseReplay(value: unknown): JoinConfig['replay'] {
  if (value === undefined || value === null) return null;
  if (!isObject(value)) return 'invalid';
  const { since, limit } = value;
  if (!Number.isSafeInteger(since) || Math.abs(since as number) > 8.64e15) return 'invalid';
  if (limit !== undefined && limit !== null && !Number.isSafeInteger(limit)) return 'invalid';
  const wanted = typeof limit === 'number' ? limit : MAX_REPLAY;
  return { since: since as number, limit: Math.max(1, Math.min(wanted, MAX_REPLAY)) };
}

function parseJoin(payload: JsonObject): Parsed<JoinConfig> {
  const config = payload.config ?? {};
  if (!isObject(config))
    return { ok: false, reason: reasons.invalidJoinPayload('config: unable to parse, expected a map') };
  const broadcast = config.broadcast ?? {};
  const presence = config.presence ?? {};
  if (!isObject(broadcast))
    return { ok: false, reason: reasons.invalidJoinPayload('broadcast: unable to parse, expected a map') };
  if (!isObject(presence))
    return { ok: false, reason: reasons.invalidJoinPayload('presence: unable to parse, expected a map') };
  const changes = config.postgres_changes ?? [];
  if (!Array.isArray(changes) || changes.some((item) => item !== null && !isObject(item))) {
    return {
      ok: false,
      reason: reasons.invalidJoinPayload('postgres_changes: unable to parse, expected an array of maps'),
    };
  }
  if (changes.length > MAX_BINDINGS) {
    return {
      ok: false,
      reason: reasons.invalidJoinPayload(`postgres_changes: at most ${MAX_BINDINGS} bindings per channel`),
    };
  }
  let presenceKey = '';
  if (presence.key !== undefined && presence.key !== null) {
    if (!['string', 'number', 'boolean'].includes(typeof presence.key)) {
      return {
        ok: false,
        reason: reasons.invalidJoinPayload('presence.key: unable to parse, expected a string'),
      };
    }
    presenceKey = String(presence.key);
  }
  const token = payload.access_token ?? payload.user_token ?? null;
  if (token !== null && typeof token !== 'string') {
    return {
      ok: false,
      reason: reasons.invalidJoinPayload('access_token: unable to parse, expected a string'),
    };
  }
  return {
    ok: true,
    value: {
      self: flag(broadcast.self, false),
      ack: flag(broadcast.ack, false),
      presenceEnabled: flag(presence.enabled, false),
      presenceKey: presenceKey === '' ? randomUUID() : presenceKey,
      private: flag(config.private, false),
      postgresChanges: changes.filter(isObject),
      token,
      replay: parseReplay(broadcast.replay),
    },
  };
}

/** Supabase's parse_subscription_params: which table(s), which events, which filter. */
function parseBinding(params: JsonObject): Parsed<Omit<SubscriptionSpec, 'id'>> {
  const event = typeof params.event === 'string' ? params.event.toUpperCase() : '*';
  const action = (['INSERT', 'UPDATE', 'DELETE'].includes(event) ? event : '*') as SubscriptionSpec['action'];
  const { schema, table } = params;
  const has = (key: string) => Object.hasOwn(params, key) && params[key] !== undefined;
  let resolved: { schema: string; table: string } | undefined;
  if (typeof schema === 'string' && typeof table === 'string') resolved = { schema, table };
  else if (typeof schema === 'string' && !has('table') && !has('filter')) resolved = { schema, table: '*' };
  else if (typeof table === 'string' && !has('schema') && !has('filter'))
    resolved = { schema: 'public', table };
  if (!resolved || resolved.schema === '' || resolved.table === '') {
    return { ok: false, reason: systemMessages.noParams() };
  }
  const filter = parseFilter(params.filter);
  if (!filter.ok) return { ok: false, reason: filter.message };
  return { ok: true, value: { ...resolved, action, filters: filter.filters } };
}

function describeBinding(spec: Omit<SubscriptionSpec, 'id'>): string {
  const filters = spec.filters.map((f) => `${f.column}=${f.op}.${f.value}`).join(', ');
  return `event: ${spec.action}, schema: ${spec.schema}, table: ${spec.table}, filters: [${filters}]`;
}

/** What an identity may do on a private channel (Realtime Authorization); null: not checked yet. */
interface Access {
  read: boolean | null;
  write: boolean | null;
}
export interface Policies {
  broadcast: Access;
  presence: Access;
}

type PoliciesResult = { ok: true; policies: Policies } | { ok: false; reason: string };

/**
 * An error raised by the database while a policy was evaluated (Supabase's RlsPolicyError: the
 * channel is refused), as opposed to the database being unreachable or overloaded.
 */
function isPolicyError(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return (
    typeof code === 'string' &&
    /^[0-9A-Z]{5}$/.test(code) &&
    !code.startsWith('08') &&
    !code.startsWith('57P') &&
    !code.startsWith('53')
  );
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * One joined topic of one connection: its identity (the access token's claims, which row-level
 * security sees), its postgres_changes bindings, its broadcast settings and its presence.
 */
export class Channel {
  readonly subTopic: string;
  /** `public:<name>` or `private:<name>`: private and public channels of one name never mix. */
  topicKey = '';
  joinRef: string | null;
  state: 'joining' | 'joined' | 'closed' = 'joining';
  config!: JoinConfig;
  identity!: Identity;
  private bindings: Binding[] = [];
  /** Private channels only: what this channel's identity may read and write (decision 147). */
  private policies: Policies | null = null;
  private presence: { ref: string; meta: JsonObject } | null = null;
  private presenceSynced = false;
  private held: { data: string | Buffer; id?: string }[] = [];
  /** Ids of the stored broadcasts replayed at join (decision 234): never sent a second time. */
  private replayedIds: ReadonlySet<string> | null = null;
  private expiryTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly conn: Connection,
    readonly topic: string,
    joinRef: string | null,
  ) {
    this.subTopic = topic.slice('realtime:'.length);
    this.joinRef = joinRef;
  }

  private get service() {
    return this.conn.service;
  }

  // ----------------------------------------------------------------------------------------- sending

  /** Sends to the client; while the join is being answered, holds the message until after the reply. */
  send(data: string | Buffer, id?: string): void {
    if (this.state === 'closed') return;
    if (this.state === 'joining') {
      if (this.held.length < MAX_BUFFERED_WHILE_JOINING) this.held.push({ data, id });
      return;
    }
    this.conn.send(data);
  }

  /** Whether this channel is joining with broadcast replay (it then holds live broadcasts too). */
  get replaying(): boolean {
    return this.config?.replay !== null && this.config?.replay !== undefined;
  }

  /** Whether the stored broadcast `id` was replayed to this channel at join. */
  replayed(id: string): boolean {
    return this.replayedIds?.has(id) ?? false;
  }

  push(event: string, payload: unknown): void {
    this.send(encodeRaw(this.conn.vsn, null, null, this.topic, event, JSON.stringify(payload)));
  }

  private reply(ref: string | null, status: 'ok' | 'error', response: unknown): void {
    this.conn.reply(this.joinRef, ref, this.topic, status, response);
  }

  private system(extension: 'system' | 'postgres_changes', status: 'ok' | 'error', message: string): void {
    this.push('system', { extension, status, message, channel: this.subTopic });
  }

  pushChange(bindingIds: number[], data: string): void {
    const ids = JSON.stringify(bindingIds);
    this.send(
      encodeRaw(this.conn.vsn, null, null, this.topic, 'postgres_changes', `{"ids":${ids},"data":${data}}`),
    );
  }

  // ----------------------------------------------------------------------------------------- joining

  /** Answers a phx_join. Resolves once the reply (ok or error) has been sent. */
  async join(message: Message): Promise<boolean> {
    const parsed = parseJoin(message.payload);
    if (!parsed.ok) return this.refuse(message.ref, parsed.reason);
    this.config = parsed.value;

    if (this.subTopic === '') return this.refuse(message.ref, reasons.topicRequired());
    if (Buffer.byteLength(this.topic) > MAX_TOPIC_BYTES) {
      return this.refuse(message.ref, reasons.topicTooLong(MAX_TOPIC_BYTES - 'realtime:'.length));
    }

    const identity = await this.resolveIdentity(this.config.token);
    if (!identity.ok) return this.refuse(message.ref, identity.reason);
    this.identity = identity.identity;
    if (this.config.private) {
      const read = await this.readPolicies(this.identity);
      if (!read.ok) return this.refuse(message.ref, read.reason);
      this.policies = read.policies;
    }
    this.topicKey = `${this.config.private ? 'private' : 'public'}:${this.subTopic}`;
    // Broadcast replay, as Supabase Realtime checks it: readable broadcasts, then a private channel,
    // then valid parameters.
    if (this.config.replay !== null) {
      if (this.policies !== null && this.policies.broadcast.read !== true) {
        return this.refuse(message.ref, reasons.privateNotAllowed(this.subTopic));
      }
      if (!this.config.private) return this.refuse(message.ref, reasons.replayPublic());
      if (this.config.replay === 'invalid') return this.refuse(message.ref, reasons.replayInvalid());
    }

    // Registered before anything is awaited, so nothing published from here on is missed; what
    // arrives before the reply is held and sent right after it.
    this.service.attach(this);
    // A deletion or suspension whose notice arrived while the account was being checked: check again
    // (now attached, a later notice closes this channel like any other).
    const sub = this.identity.claims.sub;
    if (
      this.identity.role === 'authenticated' &&
      typeof sub === 'string' &&
      this.service.revokedRecently(sub)
    ) {
      const again = await this.checkedIdentity(this.identity.token);
      if (!again.ok) {
        this.service.detach(this);
        return this.refuse(message.ref, again.reason);
      }
    }

    // Read after attaching: a broadcast committed meanwhile is both held and replayed, and sent once.
    let replay: DatabaseBroadcast[] = [];
    const asked = this.config.replay;
    if (typeof asked === 'object' && asked !== null) {
      try {
        replay = await this.service.rdb.replayBroadcasts(this.subTopic, asked.since, asked.limit);
      } catch (error) {
        this.service.log.error({ err: error, topic: this.subTopic }, 'realtime: replaying broadcasts failed');
        this.service.detach(this);
        return this.refuse(message.ref, reasons.replayFailed());
      }
      this.replayedIds = new Set(replay.map((stored) => stored.id));
    }

    const replyBindings: JsonObject[] = [];
    const specs: SubscriptionSpec[] = [];
    let bindingError: string | null = null;
    for (const params of this.config.postgresChanges) {
      const id = bindingId(params);
      replyBindings.push({ ...params, id });
      const spec = parseBinding(params);
      if (!spec.ok) {
        bindingError ??= spec.reason;
        continue;
      }
      const subscriptionId = randomUUID();
      this.bindings.push({ id, subscriptionId });
      specs.push({ id: subscriptionId, ...spec.value });
    }

    let subscribed: { ok: boolean; message: string } | null = null;
    if (bindingError !== null) {
      this.bindings = [];
      subscribed = { ok: false, message: bindingError };
    } else if (specs.length > 0) {
      for (const binding of this.bindings) {
        this.service.feed.addTarget(binding.subscriptionId, { channel: this, bindingId: binding.id });
      }
      try {
        const result = await this.service.rdb.subscribe(
          this.service.nodeId,
          specs,
          this.identity.claims,
          this.identity.role,
        );
        if ('failed' in result) {
          const spec = specs[result.failed] as SubscriptionSpec;
          subscribed = {
            ok: false,
            message: result.empty
              ? systemMessages.nothingToSubscribe(describeBinding(spec))
              : systemMessages.subscribeFailed(describeBinding(spec), result.message),
          };
          this.dropBindings();
        } else {
          subscribed = { ok: true, message: systemMessages.subscribed() };
        }
      } catch (error) {
        this.service.log.error({ err: error }, 'realtime: recording subscriptions failed');
        this.dropBindings();
        this.service.detach(this);
        return this.refuse(message.ref, reasons.unavailable());
      }
    }

    if (this.state === 'closed') {
      // The connection went away while the subscriptions were being recorded.
      await this.service.rdb.unsubscribe(specs.map((spec) => spec.id)).catch(() => {});
      return false;
    }
    this.reply(message.ref, 'ok', { postgres_changes: replyBindings });
    this.state = 'joined';
    for (const stored of replay) {
      const frame = this.service.frameReplayed(this, stored);
      if (frame) this.conn.send(frame);
    }
    for (const { data, id } of this.held) {
      if (id === undefined || !this.replayed(id)) this.conn.send(data);
    }
    this.held = [];
    if (subscribed) this.system('postgres_changes', subscribed.ok ? 'ok' : 'error', subscribed.message);
    this.armExpiry();
    if (this.config.presenceEnabled) await this.syncPresence();
    return true;
  }

  private refuse(ref: string | null, reason: string): boolean {
    this.reply(ref, 'error', { reason });
    this.state = 'closed';
    return false;
  }

  private async resolveIdentity(token: string | null) {
    const usable = token && !isOpaqueApiKey(token) ? token : this.conn.apikey;
    return this.checkedIdentity(usable);
  }

  /** The token's identity, refused when it names a user whose account is gone or suspended (097, 104). */
  private async checkedIdentity(token: string): Promise<IdentityResult> {
    const result = await verifyIdentity(token, this.service.jwt);
    if (!result.ok || result.identity.role !== 'authenticated') return result;
    const sub = result.identity.claims.sub;
    if (typeof sub !== 'string' || !UUID.test(sub)) return result;
    let status: 'ok' | 'gone' | 'suspended';
    try {
      status = await this.service.rdb.accountStatus(sub);
    } catch (error) {
      this.service.log.error({ err: error }, 'realtime: checking the account of a token failed');
      return { ok: false, reason: reasons.unavailable() };
    }
    if (status === 'ok') return result;
    return { ok: false, reason: status === 'gone' ? reasons.accountGone() : reasons.accountSuspended() };
  }

  /**
   * Realtime Authorization at join and on a new token, as Supabase does it: the identity's SELECT
   * policies on realtime.messages for this topic decide whether it may read broadcast (and presence,
   * when enabled); a channel that may read neither is refused. Write access is checked again later.
   */
  private async readPolicies(identity: Identity): Promise<PoliciesResult> {
    const extensions = this.config.presenceEnabled ? ['broadcast', 'presence'] : ['broadcast'];
    let allowed: Set<string>;
    try {
      allowed = await this.service.rdb.authorize(
        this.subTopic,
        identity.role,
        identity.claims,
        false,
        extensions,
      );
    } catch (error) {
      if (!isPolicyError(error)) {
        this.service.log.error({ err: error }, 'realtime: authorizing a private channel failed');
        return { ok: false, reason: reasons.unavailable() };
      }
      this.service.log.warn({ err: error, topic: this.subTopic }, 'realtime: RlsPolicyError');
      return { ok: false, reason: reasons.privateNotAllowed(this.subTopic) };
    }
    const policies: Policies = {
      broadcast: { read: allowed.has('broadcast'), write: null },
      presence: {
        read: this.config.presenceEnabled ? allowed.has('presence') : null,
        write: null,
      },
    };
    if (!policies.broadcast.read && !policies.presence.read) {
      return { ok: false, reason: reasons.privateNotAllowed(this.subTopic) };
    }
    return { ok: true, policies };
  }

  /**
   * Whether this channel may send on its topic (broadcast, or track presence): always on a public
   * channel; on a private one, the identity's INSERT policies on realtime.messages decide, checked
   * at the first send and remembered until the token changes (as Supabase does).
   */
  private async mayWrite(extension: 'broadcast' | 'presence'): Promise<boolean> {
    const policies = this.policies;
    if (!policies) return true;
    if (policies[extension].write === null) {
      try {
        const allowed = await this.service.rdb.authorize(
          this.subTopic,
          this.identity.role,
          this.identity.claims,
          true,
          ['broadcast', 'presence'],
        );
        policies.broadcast.write = allowed.has('broadcast');
        policies.presence.write = allowed.has('presence');
      } catch (error) {
        this.service.log.warn({ err: error, topic: this.subTopic }, 'realtime: checking a send failed');
        return false;
      }
    }
    return policies[extension].write === true;
  }

  /** Whether broadcasts on this channel's topic reach it (a private channel needs broadcast read). */
  get readsBroadcast(): boolean {
    return this.policies === null || this.policies.broadcast.read === true;
  }

  private get readsPresence(): boolean {
    return this.policies === null || this.policies.presence.read === true;
  }

  private dropBindings(): void {
    for (const binding of this.bindings) this.service.feed.removeTarget(binding.subscriptionId);
    this.bindings = [];
  }

  // ------------------------------------------------------------------------------- messages once joined

  async handle(message: Message): Promise<void> {
    switch (message.event) {
      case 'access_token':
        return this.updateToken(message);
      case 'broadcast':
        return this.broadcast(message);
      case 'presence':
        return this.presenceEvent(message);
      default:
        this.reply(message.ref, 'error', { reason: reasons.unknownEvent(message.event) });
    }
  }

  private async broadcast(message: Message): Promise<void> {
    // Refused sends are dropped without a reply, even with `ack` (as Supabase does).
    if (!(await this.mayWrite('broadcast'))) return;
    const json = JSON.stringify(message.payload);
    const limit = this.service.config.maxPayloadBytes;
    if (Buffer.byteLength(json) > limit) {
      this.reply(message.ref, 'error', { reason: reasons.payloadTooLarge(limit) });
      return;
    }
    this.service.broadcastJson(this.topicKey, json, this.config.self ? null : this);
    if (this.config.ack) this.reply(message.ref, 'ok', {});
  }

  async userBroadcast(push: UserBroadcastPush): Promise<void> {
    if (!(await this.mayWrite('broadcast'))) return;
    const limit = this.service.config.maxPayloadBytes;
    if (push.payload.length > limit) {
      this.reply(push.ref, 'error', { reason: reasons.payloadTooLarge(limit) });
      return;
    }
    if (push.encoding === 'json') {
      try {
        JSON.parse(push.payload.toString('utf8'));
      } catch {
        this.reply(push.ref, 'error', { reason: reasons.invalidBroadcast('the payload is not valid JSON') });
        return;
      }
    }
    this.service.broadcastUser(
      this.topicKey,
      push.userEvent,
      push.encoding,
      push.payload,
      push.metadata,
      this.config.self ? null : this,
    );
    if (this.config.ack) this.reply(push.ref, 'ok', {});
  }

  private async presenceEvent(message: Message): Promise<void> {
    const { event } = message.payload;
    const name = typeof event === 'string' ? event.toLowerCase() : '';
    if (name === 'track') {
      const meta = message.payload.payload ?? {};
      if (!isObject(meta)) {
        this.reply(message.ref, 'error', { reason: reasons.invalidPresence() });
        return;
      }
      const limit = this.service.config.maxPayloadBytes;
      if (Buffer.byteLength(JSON.stringify(meta)) > limit) {
        this.reply(message.ref, 'error', { reason: reasons.payloadTooLarge(limit) });
        return;
      }
      if (!(await this.mayTrack())) {
        this.reply(message.ref, 'error', {});
        return;
      }
      await this.track(meta);
      this.reply(message.ref, 'ok', {});
      if (!this.presenceSynced) await this.syncPresence();
    } else if (name === 'untrack') {
      await this.untrack();
      this.reply(message.ref, 'ok', {});
    } else {
      this.reply(message.ref, 'error', { reason: reasons.unknownPresenceEvent(String(event)) });
    }
  }

  /**
   * On a private channel, tracking needs presence write; presence read, not checked at a join
   * without presence, is checked first (it decides whether this channel then sees who is there).
   */
  private async mayTrack(): Promise<boolean> {
    const policies = this.policies;
    if (!policies) return true;
    if (policies.presence.read === null) {
      try {
        const allowed = await this.service.rdb.authorize(
          this.subTopic,
          this.identity.role,
          this.identity.claims,
          false,
          ['presence'],
        );
        policies.presence.read = allowed.has('presence');
      } catch (error) {
        this.service.log.warn({ err: error, topic: this.subTopic }, 'realtime: checking presence failed');
        return false;
      }
    }
    return this.mayWrite('presence');
  }

  private async track(meta: JsonObject): Promise<void> {
    const previous = this.presence;
    if (previous && JSON.stringify(previous.meta) === JSON.stringify(meta)) return;
    const ref = newPresenceRef();
    this.presence = { ref, meta };
    this.config.presenceEnabled = true;
    await this.service.rdb.track({
      ref,
      nodeId: this.service.nodeId,
      topic: this.topicKey,
      key: this.config.presenceKey,
      meta,
      replaces: previous?.ref ?? null,
    });
    for (const diff of trackDiffs(this.config.presenceKey, ref, meta, previous)) {
      this.service.presenceDiff(this.topicKey, diff);
    }
  }

  private async untrack(): Promise<void> {
    const previous = this.presence;
    if (!previous) return;
    this.presence = null;
    await this.service.rdb.untrack([previous.ref]);
    this.service.presenceDiff(this.topicKey, {
      joins: {},
      leaves: { [this.config.presenceKey]: { metas: [{ ...previous.meta, phx_ref: previous.ref }] } },
    });
  }

  /** Re-records this channel's presence (after this process was re-registered). */
  async retrack(): Promise<void> {
    if (!this.presence) return;
    await this.service.rdb.track({
      ref: this.presence.ref,
      nodeId: this.service.nodeId,
      topic: this.topicKey,
      key: this.config.presenceKey,
      meta: this.presence.meta,
      replaces: null,
    });
  }

  /** Re-records this channel's subscriptions (after this process was re-registered). */
  async resubscribe(): Promise<void> {
    if (this.bindings.length === 0) return;
    const specs: SubscriptionSpec[] = [];
    for (const [index, params] of this.config.postgresChanges.entries()) {
      const spec = parseBinding(params);
      const binding = this.bindings[index];
      if (spec.ok && binding) specs.push({ id: binding.subscriptionId, ...spec.value });
    }
    await this.service.rdb.subscribe(this.service.nodeId, specs, this.identity.claims, this.identity.role);
  }

  private async syncPresence(): Promise<void> {
    this.presenceSynced = true;
    if (!this.readsPresence) return;
    const rows = await this.service.rdb.presenceState(this.topicKey);
    if (this.state === 'joined') this.push('presence_state', presenceState(rows));
  }

  /** A presence diff on this channel's topic (from this or another process). */
  presenceDiffJson(json: string): void {
    if (!this.config.presenceEnabled || !this.presenceSynced || !this.readsPresence) return;
    this.send(encodeRaw(this.conn.vsn, null, null, this.topic, 'presence_diff', json));
  }

  // ---------------------------------------------------------------------------------------- identity

  private async updateToken(message: Message): Promise<void> {
    const token = message.payload.access_token;
    if (typeof token !== 'string' || token === this.identity.token || isOpaqueApiKey(token)) {
      this.reply(message.ref, 'ok', {});
      return;
    }
    const result = await this.checkedIdentity(token);
    if (!result.ok) {
      await this.shutdown(result.reason.replace(/^[A-Za-z]+: /, ''));
      return;
    }
    if (this.policies) {
      const previous = this.policies;
      const read = await this.readPolicies(result.identity);
      if (!read.ok) {
        await this.shutdown(read.reason.replace(/^[A-Za-z]+: /, ''));
        return;
      }
      const revoked = (before: boolean | null, now: boolean | null) => before === true && now === false;
      if (
        revoked(previous.broadcast.read, read.policies.broadcast.read) ||
        revoked(previous.presence.read, read.policies.presence.read)
      ) {
        await this.shutdown(
          `You no longer have permission to read from this Channel topic: ${this.subTopic}`,
        );
        return;
      }
      this.policies = read.policies;
    }
    this.identity = result.identity;
    this.armExpiry();
    try {
      await this.service.rdb.updateClaims(
        this.bindings.map((binding) => binding.subscriptionId),
        this.identity.claims,
        this.identity.role,
      );
    } catch (error) {
      this.service.log.error({ err: error }, 'realtime: updating a channel identity failed');
      await this.shutdown(reasons.unavailable());
      return;
    }
    this.reply(message.ref, 'ok', {});
  }

  private armExpiry(): void {
    clearTimeout(this.expiryTimer);
    const remaining = this.identity.exp * 1000 - Date.now();
    this.expiryTimer = setTimeout(
      () => {
        if (this.state === 'closed') return;
        const now = Date.now();
        if (now < this.identity.exp * 1000) return this.armExpiry();
        void this.shutdown(systemMessages.tokenExpired(Math.floor(now / 1000) - this.identity.exp));
      },
      Math.min(Math.max(remaining, 0), MAX_TIMER_MS),
    );
    this.expiryTimer.unref();
  }

  /** Whether this channel acts as the given user (its token's `sub`, signed in). */
  /** The account this channel acts for (a signed-in identity), while it is open. */
  get userId(): string | undefined {
    if (this.state === 'closed' || this.identity?.role !== 'authenticated') return undefined;
    const sub = this.identity.claims.sub;
    return typeof sub === 'string' ? sub : undefined;
  }

  actsFor(userId: string): boolean {
    return (
      this.state !== 'closed' &&
      this.identity?.role === 'authenticated' &&
      this.identity.claims.sub === userId
    );
  }

  // ----------------------------------------------------------------------------------------- closing

  /** Closes the channel from the server side: a `system` error, then `phx_close`. */
  async shutdown(message: string): Promise<void> {
    if (this.state === 'closed') return;
    if (this.state === 'joined') {
      this.system('system', 'error', message);
      this.conn.send(encodeRaw(this.conn.vsn, this.joinRef, this.joinRef, this.topic, 'phx_close', '{}'));
    }
    await this.close();
  }

  /** Releases everything the channel holds (subscriptions, presence, timers). Idempotent. */
  async close(): Promise<void> {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.held = [];
    clearTimeout(this.expiryTimer);
    this.conn.forget(this);
    this.service.detach(this);
    const subscriptionIds = this.bindings.map((binding) => binding.subscriptionId);
    this.dropBindings();
    try {
      await this.untrack();
      await this.service.rdb.unsubscribe(subscriptionIds);
    } catch (error) {
      // The rows belong to this process; they go when it stops or is found dead.
      this.service.log.warn({ err: error }, 'realtime: releasing a channel failed');
    }
  }
}
