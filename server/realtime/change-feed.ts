import type { FastifyBaseLogger } from 'fastify';
import type { RealtimeConfig } from '../config.ts';
import { realtimeDelivery } from '../metrics.ts';
import type { Delivery, RealtimeDb } from './db.ts';
import { startChangePoll, type Timers } from './jobs.ts';

/** Who receives a subscription's changes: a channel and the id of its binding. */
export interface ChangeTarget<C> {
  channel: C;
  bindingId: number;
}

/**
 * This process's reader of `realtime.changes`. Woken by NOTIFY (and by a slow poll, in case a
 * notification was missed), it asks the database which of this process's subscribers may see the
 * changes after its cursor, one batch per round trip, and hands each change to its channels in
 * commit order. One drain runs at a time, so deliveries never overtake each other.
 */
export class ChangeFeed<C> {
  private cursor = 0n;
  private readonly targets = new Map<string, ChangeTarget<C>>();
  private draining = false;
  private again = false;
  private stopped = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  private poll: Timers | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private stopResets: (() => void) | undefined;
  private idle: Promise<void> = Promise.resolve();

  constructor(
    private readonly rdb: RealtimeDb,
    private readonly nodeId: string,
    private readonly config: RealtimeConfig,
    private readonly log: FastifyBaseLogger,
    private readonly deliver: (channel: C, bindingIds: number[], payload: string) => void,
  ) {}

  /** The id of the last change read (for the delivery lag in `/metrics`). */
  get position(): bigint {
    return this.cursor;
  }

  /** Registers this process (reading from the newest change on) and starts listening. */
  async start(): Promise<void> {
    this.cursor = await this.rdb.registerNode(this.nodeId, null);
    this.unlisten = await this.rdb.listen('realtime_changes', () => this.wake());
    // After a lost listening connection, what it missed is after the cursor: read it now.
    this.stopResets = this.rdb.onListenerReset(() => this.wake());
    this.poll = startChangePoll(this.config, () => this.wake());
  }

  /** Registers this process again after others removed it (it stalled); keeps its cursor. */
  async reregister(): Promise<void> {
    await this.rdb.registerNode(this.nodeId, this.cursor);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopResets?.();
    this.poll?.stop();
    clearTimeout(this.retryTimer);
    await this.unlisten?.();
    await this.idle;
  }

  addTarget(subscriptionId: string, target: ChangeTarget<C>): void {
    this.targets.set(subscriptionId, target);
  }

  removeTarget(subscriptionId: string): void {
    this.targets.delete(subscriptionId);
  }

  wake(): void {
    if (this.stopped) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = true;
    this.idle = this.drain().finally(() => {
      this.draining = false;
    });
  }

  private async drain(): Promise<void> {
    const batch = this.config.changeBatchSize;
    try {
      do {
        this.again = false;
        for (;;) {
          if (this.stopped) return;
          const from = this.cursor;
          const t0 = performance.now();
          const rows = await this.applyBatch(from, batch);
          const t1 = performance.now();
          if (rows.length === 0) break;
          observeDelivery(rows);
          this.dispatch(rows);
          this.log.debug(
            {
              deliveries: rows.length - 1,
              dbMs: Math.round(t1 - t0),
              dispatchMs: Math.round(performance.now() - t1),
            },
            'realtime: applied a batch of changes',
          );
          // Ids only grow, so a span shorter than the batch means the batch was not full.
          if (this.cursor - from < BigInt(batch)) break;
        }
      } while (this.again && !this.stopped);
      this.failures = 0;
    } catch (error) {
      if (this.stopped) return;
      // Backing off (up to 10 s) keeps an unreachable database from flooding the log.
      this.failures++;
      const delay = Math.min(10_000, 500 * 2 ** Math.min(this.failures, 5));
      this.log.error({ err: error, retryInMs: delay }, 'realtime: reading changes failed');
      clearTimeout(this.retryTimer);
      this.retryTimer = setTimeout(() => this.wake(), delay);
      this.retryTimer.unref();
    }
  }

  /**
   * One batch. On PostgreSQL the subscribers' identities are split into shards applied on as many
   * connections at once (the row-level security checks are the bulk of the work and each is
   * independent); the shards' deliveries are merged back into commit order.
   */
  private async applyBatch(from: bigint, batch: number): Promise<Delivery[]> {
    const shards = this.rdb.mode === 'postgres' ? this.config.applyParallelism : 1;
    const max = this.config.maxRecordBytes;
    if (shards === 1) return this.rdb.applyChanges(this.nodeId, from, null, batch, max);
    const end = await this.rdb.batchEnd(from, batch);
    if (end === null) return [];
    const parts = await Promise.all(
      Array.from({ length: shards }, (_, shard) =>
        this.rdb.applyChanges(this.nodeId, from, end, batch, max, shard, shards),
      ),
    );
    const rows = parts.flat().filter((row) => row.payload !== null);
    rows.sort((a, b) => (a.changeId < b.changeId ? -1 : a.changeId > b.changeId ? 1 : 0));
    rows.push({ changeId: end, payload: null, subscriptionIds: [] });
    return rows;
  }

  private dispatch(rows: Delivery[]): void {
    for (const row of rows) {
      if (row.changeId > this.cursor) this.cursor = row.changeId;
      if (row.payload === null) continue;
      const byChannel = new Map<C, number[]>();
      for (const id of row.subscriptionIds) {
        const target = this.targets.get(id);
        if (!target) continue;
        const ids = byChannel.get(target.channel);
        if (ids) {
          if (!ids.includes(target.bindingId)) ids.push(target.bindingId);
        } else byChannel.set(target.channel, [target.bindingId]);
      }
      for (const [channel, ids] of byChannel) {
        try {
          this.deliver(channel, ids, row.payload);
        } catch (error) {
          this.log.error({ err: error }, 'realtime: delivering a change failed');
        }
      }
    }
  }
}

const COMMITTED = /"commit_timestamp":"([^"]+)"/;

/** Time from the commit of the batch's oldest change to now, for `/metrics` (one regex per batch). */
function observeDelivery(rows: Delivery[]): void {
  const oldest = rows.find((row) => row.payload !== null)?.payload;
  const committed = oldest ? COMMITTED.exec(oldest)?.[1] : undefined;
  const at = committed ? Date.parse(committed) : Number.NaN;
  if (Number.isFinite(at)) realtimeDelivery.observe(Math.max(0, (Date.now() - at) / 1000));
}
