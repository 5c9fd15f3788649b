import type { FastifyBaseLogger } from 'fastify';
import type { RealtimeDb } from './db.ts';
import type { PresenceDiff } from './presence.ts';
import type { JsonObject, PayloadEncoding } from './protocol/serializer.ts';

/**
 * What one server process tells the others: broadcasts and presence diffs, so subscribers connected
 * to any process of the same PostgreSQL database see them. Carried by NOTIFY on `realtime_bus`
 * (batched: one round trip per event-loop turn). The embedded database has a single process, so
 * there the bus is silent.
 */
export type BusMessage =
  /** A JSON broadcast; `p` is the broadcast payload `{type, event, payload}` as JSON text. */
  | { k: 'b'; t: string; p: string }
  /** A broadcast from a binary frame; `p` is the user payload, base64. */
  | { k: 'u'; t: string; e: string; f: PayloadEncoding; p: string; m: JsonObject | null }
  | { k: 'p'; t: string; d: PresenceDiff };

type Envelope = BusMessage & { n: string };

export class Bus {
  private queue: string[] = [];
  private flushing = false;
  private unlisten: (() => Promise<void>) | undefined;
  private received: Promise<void> = Promise.resolve();

  constructor(
    private readonly rdb: RealtimeDb,
    private readonly nodeId: string,
    private readonly receive: (message: BusMessage) => void,
    private readonly log: FastifyBaseLogger,
  ) {}

  get enabled(): boolean {
    return this.rdb.mode === 'postgres';
  }

  async start(): Promise<void> {
    if (!this.enabled) return;
    this.unlisten = await this.rdb.listen('realtime_bus', (payload) => {
      // In arrival order, even when a stored (large) message has to be fetched first.
      this.received = this.received.then(() => this.onNotification(payload));
    });
  }

  async stop(): Promise<void> {
    await this.flush();
    await this.unlisten?.();
    this.unlisten = undefined;
  }

  publish(message: BusMessage): void {
    if (!this.enabled) return;
    this.queue.push(JSON.stringify({ ...message, n: this.nodeId } satisfies Envelope));
    if (!this.flushing) {
      this.flushing = true;
      setImmediate(() => void this.flush());
    }
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, 500);
      try {
        await this.rdb.publish(this.nodeId, batch);
      } catch (error) {
        this.log.error({ err: error }, 'realtime: could not publish to the other server processes');
      }
    }
    this.flushing = false;
  }

  private async onNotification(payload: string): Promise<void> {
    try {
      let envelope = JSON.parse(payload) as Envelope | { n: string; stored: string };
      if (envelope.n === this.nodeId) return;
      if ('stored' in envelope) {
        const body = await this.rdb.readMessage(envelope.stored);
        if (body === null) return;
        envelope = JSON.parse(body) as Envelope;
      }
      this.receive(envelope);
    } catch (error) {
      this.log.warn({ err: error }, 'realtime: ignored an unreadable message from another server process');
    }
  }
}
