import type { FastifyBaseLogger } from 'fastify';
import type { RealtimeDb } from './db.ts';
import type { PresenceDiff } from './presence.ts';
import type { JsonObject, PayloadEncoding } from './protocol/serializer.ts';
import { SeenIds } from './seen.ts';

/**
 * What one server process tells the others: broadcasts and presence diffs, so subscribers connected
 * to any process of the same PostgreSQL database see them. Each message is kept a minute in
 * `realtime.bus_messages` and announced by NOTIFY on `realtime_bus` (batched: one round trip per
 * event-loop turn); when the listening connection was lost and opened again, the rows not seen are
 * read, so nothing sent in between is lost and nothing is delivered twice (decision 172). The
 * embedded database has a single process, so there the bus is silent.
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
  private readonly seen = new SeenIds();
  /** The newest message id when this process started listening: older ones are not for it. */
  private startId = '0';
  private stopResets: (() => void) | undefined;

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
    this.startId = await this.rdb.lastBusMessage();
    this.stopResets = this.rdb.onListenerReset(() => {
      this.received = this.received.then(() => this.catchUp());
    });
  }

  async stop(): Promise<void> {
    this.stopResets?.();
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
    const space = payload.indexOf(' ');
    const id = space < 0 ? payload : payload.slice(0, space);
    await this.handle(id, space < 0 ? null : payload.slice(space + 1));
  }

  /** One message by its id, with its body when the notification carried it; each id once. */
  private async handle(id: string, body: string | null): Promise<void> {
    if (!this.seen.add(id)) return;
    try {
      const text = body ?? (await this.rdb.readMessage(id));
      if (text === null) return;
      const envelope = JSON.parse(text) as Envelope;
      if (envelope.n === this.nodeId) return;
      this.receive(envelope);
    } catch (error) {
      this.log.warn({ err: error }, 'realtime: ignored an unreadable message from another server process');
    }
  }

  /** After the listening connection was re-opened: the messages kept that were not heard of. */
  private async catchUp(): Promise<void> {
    try {
      const rows = await this.rdb.busMessagesAfter(this.startId);
      let missed = 0;
      for (const row of rows) {
        if (this.seen.has(row.id)) continue;
        missed++;
        await this.handle(row.id, row.body);
      }
      if (missed > 0) this.log.warn({ missed }, 'realtime: delivered messages sent while not listening');
    } catch (error) {
      this.log.error({ err: error }, 'realtime: could not read the messages sent while not listening');
    }
  }
}
