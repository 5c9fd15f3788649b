import type { Database, Queryable } from '../db/driver.ts';
import type { Filter } from './filters.ts';

/** The realtime service's SQL; the heavy lifting is in the `realtime` schema's functions. */

export interface Delivery {
  changeId: bigint;
  /** The `data` of a postgres_changes message, as JSON text; null for the batch's cursor row. */
  payload: string | null;
  subscriptionIds: string[];
}

export interface PresenceRow {
  topic: string;
  key: string;
  ref: string;
  meta: Record<string, unknown>;
}

/** A row of realtime.messages to broadcast (`payload` JSON text, or `binary` base64). */
export interface DatabaseBroadcast {
  id: string;
  topic: string;
  event: string;
  private: boolean;
  payload: string | null;
  binary: string | null;
}

export interface SubscriptionSpec {
  id: string;
  schema: string;
  table: string;
  action: '*' | 'INSERT' | 'UPDATE' | 'DELETE';
  filters: Filter[];
}

export class RealtimeDb {
  constructor(private readonly db: Database) {}

  /** Whether a user's account exists (a deleted account's token is still valid until it expires). */
  /**
   * Whether the account of a token may use realtime: it exists, is not deleted and not suspended
   * (decisions 097, 104).
   */
  async accountStatus(userId: string): Promise<'ok' | 'gone' | 'suspended'> {
    const { rows } = await this.db.query<{ status: 'ok' | 'suspended' }>(
      `select case when coalesce(u.banned_until > now(), false) then 'suspended' else 'ok' end as status
         from auth.users u where u.id = $1::uuid and u.deleted_at is null`,
      [userId],
    );
    return rows[0]?.status ?? 'gone';
  }

  get mode(): Database['mode'] {
    return this.db.mode;
  }

  /**
   * Registers a server process, reading from the newest change on. On the embedded database only one
   * process can run, so whatever earlier runs left behind is removed first.
   */
  async registerNode(nodeId: string, cursor: bigint | null): Promise<bigint> {
    return this.db.transaction(async (tx) => {
      if (this.db.mode === 'embedded') await tx.query('delete from realtime.nodes');
      const { rows } = await tx.query<{ cursor: string }>(
        `insert into realtime.nodes (id, cursor)
         values ($1, coalesce($2::bigint, (select coalesce(max(id), 0) from realtime.changes)))
         returning cursor`,
        [nodeId, cursor === null ? null : cursor.toString()],
      );
      return BigInt(rows[0]?.cursor ?? '0');
    });
  }

  async unregisterNode(nodeId: string): Promise<void> {
    await this.db.query('delete from realtime.nodes where id = $1', [nodeId]);
  }

  async syncTriggers(): Promise<void> {
    await this.db.query('select realtime.sync_publication_triggers()');
  }

  /**
   * Records a channel's postgres_changes bindings, all or none. Resolves to the number of tables
   * each binding matched; rejects with the database's message for the first binding that failed.
   */
  async subscribe(
    nodeId: string,
    specs: SubscriptionSpec[],
    claims: Record<string, unknown>,
    role: string,
  ): Promise<{ matched: number[] } | { failed: number; message: string; empty: boolean }> {
    class Failed extends Error {
      constructor(
        readonly index: number,
        message: string,
        readonly empty: boolean,
      ) {
        super(message);
      }
    }
    try {
      return await this.db.transaction(async (tx) => {
        const matched: number[] = [];
        for (const [index, spec] of specs.entries()) {
          let count: number;
          try {
            count = await subscribeOne(tx, nodeId, spec, claims, role);
          } catch (error) {
            throw new Failed(index, (error as Error).message, false);
          }
          if (count === 0) throw new Failed(index, 'no published table matches', true);
          matched.push(count);
        }
        return { matched };
      });
    } catch (error) {
      if (error instanceof Failed) return { failed: error.index, message: error.message, empty: error.empty };
      throw error;
    }
  }

  async unsubscribe(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.query('delete from realtime.subscriptions where id = any ($1::uuid[])', [ids]);
  }

  async updateClaims(ids: string[], claims: Record<string, unknown>, role: string): Promise<void> {
    if (ids.length === 0) return;
    await this.db.query(
      'update realtime.subscriptions set claims = $2, claims_role = $3 where id = any ($1::uuid[])',
      [ids, JSON.stringify(claims), role],
    );
  }

  /**
   * Applies the changes after `after` (up to `upto` when given) for this process's subscriptions, or
   * for the share of them hashed to `shard` of `shards` when one batch is applied in parallel.
   */
  async applyChanges(
    nodeId: string,
    after: bigint,
    upto: bigint | null,
    limit: number,
    maxRecordBytes: number,
    shard = 0,
    shards = 1,
  ): Promise<Delivery[]> {
    const { rows } = await this.db.query<{
      change_id: string;
      payload: string | null;
      subscription_ids: string[] | null;
    }>(
      `select change_id, payload, subscription_ids::text[] as subscription_ids
       from realtime.apply_changes($1, $2::bigint, $3::bigint, $4, $5, $6, $7)`,
      [
        nodeId,
        after.toString(),
        upto === null ? null : upto.toString(),
        limit,
        maxRecordBytes,
        shard,
        shards,
      ],
    );
    return rows.map((row) => ({
      changeId: BigInt(row.change_id),
      payload: row.payload,
      subscriptionIds: row.subscription_ids ?? [],
    }));
  }

  /** The last change id of the next batch (null when there is none). */
  async batchEnd(after: bigint, limit: number): Promise<bigint | null> {
    const { rows } = await this.db.query<{ end: string | null }>('select realtime.batch_end($1, $2) as end', [
      after.toString(),
      limit,
    ]);
    return rows[0]?.end ? BigInt(rows[0].end) : null;
  }

  /**
   * Beats for this process and cleans up after dead ones; resolves to the presences of processes
   * found dead (their leaves are to be announced), or null if this process was itself removed.
   */
  async heartbeat(
    nodeId: string,
    deadAfterMs: number,
    keepChangesMs: number,
    keepReplayHours: number,
  ): Promise<PresenceRow[] | null> {
    try {
      const { rows } = await this.db.query<PresenceRow>(
        `select topic, key, ref, meta
         from realtime.heartbeat($1, make_interval(secs => $2), make_interval(secs => $3),
                                 make_interval(hours => $4))`,
        [nodeId, deadAfterMs / 1000, keepChangesMs / 1000, keepReplayHours],
      );
      return rows;
    } catch (error) {
      if ((error as { code?: string }).code === 'P0002') return null;
      throw error;
    }
  }

  /** PGlite has no autovacuum: reclaim the space of delivered changes now and then. */
  async vacuum(): Promise<void> {
    // One statement each: VACUUM refuses to run inside a multi-statement string.
    for (const table of ['changes', 'presences', 'subscriptions', 'bus_messages', 'messages', 'nodes']) {
      await this.db.exec(`vacuum realtime.${table}`);
    }
  }

  async track(row: PresenceRow & { nodeId: string; replaces: string | null }): Promise<void> {
    await this.db.query(
      `with replaced as (delete from realtime.presences where ref = $6)
       insert into realtime.presences (ref, node_id, topic, key, meta) values ($1, $2, $3, $4, $5)`,
      [row.ref, row.nodeId, row.topic, row.key, JSON.stringify(row.meta), row.replaces],
    );
  }

  async untrack(refs: string[]): Promise<void> {
    if (refs.length === 0) return;
    await this.db.query('delete from realtime.presences where ref = any ($1::text[])', [refs]);
  }

  async presenceState(topic: string): Promise<PresenceRow[]> {
    const { rows } = await this.db.query<PresenceRow>(
      'select topic, key, ref, meta from realtime.presences where topic = $1 order by created_at, ref',
      [topic],
    );
    return rows;
  }

  /** Publishes messages to the other processes (NOTIFY; the table for those too big for it). */
  async publish(nodeId: string, payloads: string[]): Promise<void> {
    await this.db.query('select realtime.publish($1, $2::text[])', [nodeId, payloads]);
  }

  /**
   * Counts `messages` HTTP broadcasts of one client address in its one-second window (a row of
   * auth.rate_limits, the table of the other limits, cleared by the auth service's job): true while
   * the window's total stays within `perSecond`. Every process counts in the same row.
   */
  async hitBroadcastLimit(address: string, messages: number, perSecond: number): Promise<boolean> {
    const { rows } = await this.db.query<{ count: number }>(
      `insert into auth.rate_limits as r (key, window_start, count) values ($1, now(), $2)
       on conflict (key) do update set
         count = case when r.window_start <= now() - interval '1 second' then $2 else r.count + $2 end,
         window_start = case when r.window_start <= now() - interval '1 second' then now() else r.window_start end
       returning count`,
      [`realtime:broadcast:${address}`, messages],
    );
    return (rows[0]?.count ?? messages) <= perSecond;
  }

  /** Seconds the oldest change after `cursor` has waited (0 when there is none), for `/metrics`. */
  async changeLag(cursor: bigint): Promise<number> {
    const { rows } = await this.db.query<{ lag: number }>(
      `select coalesce(extract(epoch from clock_timestamp() - min(created_at)), 0)::float8 as lag
         from realtime.changes where id > $1::bigint`,
      [cursor.toString()],
    );
    return rows[0]?.lag ?? 0;
  }

  /** The newest cross-process message's id ('0' when there is none). */
  async lastBusMessage(): Promise<string> {
    const { rows } = await this.db.query<{ id: string }>(
      'select coalesce(max(id), 0)::text as id from realtime.bus_messages',
    );
    return rows[0]?.id ?? '0';
  }

  /** The cross-process messages still kept after `id`, oldest first (bodies as sent). */
  async busMessagesAfter(id: string): Promise<{ id: string; body: string }[]> {
    const { rows } = await this.db.query<{ id: string; body: string }>(
      'select id::text as id, body from realtime.bus_messages where id > $1::bigint order by id',
      [id],
    );
    return rows;
  }

  /** The database's clock as realtime.messages records it (`inserted_at`). */
  async messagesClock(): Promise<string> {
    const { rows } = await this.db.query<{ now: string }>('select localtimestamp::text as now');
    return rows[0]?.now ?? '';
  }

  /** Ids of the broadcasts from the database kept since `since` (messagesClock), oldest first. */
  async broadcastsSince(since: string): Promise<string[]> {
    const { rows } = await this.db.query<{ id: string }>(
      `select id::text as id from realtime.messages
        where inserted_at >= $1::timestamp and extension = 'broadcast' and event is not null
        order by inserted_at, id`,
      [since],
    );
    return rows.map((row) => row.id);
  }

  async readMessage(id: string): Promise<string | null> {
    const { rows } = await this.db.query<{ body: string }>(
      'select body from realtime.bus_messages where id = $1::bigint',
      [id],
    );
    return rows[0]?.body ?? null;
  }

  /**
   * Realtime Authorization (definitions/authorize.sql): which of `extensions` the identity may read
   * (`write` false: its SELECT policies on realtime.messages) or write (its INSERT policies) on a
   * private topic. Rejects with the database's error when a policy fails.
   */
  async authorize(
    topic: string,
    role: string,
    claims: Record<string, unknown>,
    write: boolean,
    extensions: readonly string[],
  ): Promise<Set<string>> {
    const { rows } = await this.db.query<{ allowed: string[] | null }>(
      'select realtime.authorize($1, $2, $3, $4, $5::text[]) as allowed',
      [topic, role, JSON.stringify(claims), write, extensions],
    );
    return new Set(rows[0]?.allowed ?? []);
  }

  /** A broadcast from the database too large for its notification (definitions/messages.sql). */
  /**
   * Broadcast replay (decision 234), as Supabase Realtime reads it: the newest `limit` broadcasts of a
   * private topic stored since `sinceMs` (and not dated more than a minute ahead), oldest first.
   */
  async replayBroadcasts(topic: string, sinceMs: number, limit: number): Promise<DatabaseBroadcast[]> {
    const { rows } = await this.db.query<DatabaseBroadcast>(
      `select id, topic, event, private, payload, "binary" from (
         select id::text as id, topic, event, private, payload::text as payload,
                translate(encode(binary_payload, 'base64'), E'\\n', '') as binary, inserted_at
           from realtime.messages
          where topic = $1 and private is true and extension = 'broadcast' and event is not null
            and inserted_at >= to_timestamp($2::double precision / 1000)::timestamp
            and inserted_at < (now() + interval '1 minute')::timestamp
          order by inserted_at desc, id desc
          limit $3
       ) newest order by inserted_at, id`,
      [topic, sinceMs, limit],
    );
    return rows;
  }

  async readBroadcast(id: string): Promise<DatabaseBroadcast | null> {
    const { rows } = await this.db.query<DatabaseBroadcast>(
      `select id::text as id, topic, event, private, payload::text as payload,
              translate(encode(binary_payload, 'base64'), E'\\n', '') as binary
         from realtime.messages where id = $1::uuid`,
      [id],
    );
    return rows[0] ?? null;
  }

  listen(channel: string, handler: (payload: string) => void): Promise<() => Promise<void>> {
    return this.db.listen(channel, handler);
  }

  onListenerReset(handler: () => void): () => void {
    return this.db.onListenerReset(handler);
  }
}

async function subscribeOne(
  tx: Queryable,
  nodeId: string,
  spec: SubscriptionSpec,
  claims: Record<string, unknown>,
  role: string,
): Promise<number> {
  const { rows } = await tx.query<{ matched: number }>(
    'select realtime.subscribe($1, $2, $3, $4, $5, $6, $7, $8) as matched',
    [
      nodeId,
      spec.id,
      spec.schema,
      spec.table,
      spec.action,
      JSON.stringify(spec.filters),
      JSON.stringify(claims),
      role,
    ],
  );
  return rows[0]?.matched ?? 0;
}
