import type { WebSocket } from 'ws';
import { Channel } from './channel.ts';
import { reasons, systemMessages } from './errors.ts';
import { type Decoded, decode, encodeRaw, type Message, type Vsn } from './protocol/serializer.ts';
import { TokenBucket } from './rate-limit.ts';
import type { RealtimeService } from './realtime.ts';

const OPEN = 1;
/** A client that does not read its messages is cut off before it costs the server its memory. */
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;
/** Frames waiting for an earlier one (a join waits for the database) before the client is cut off. */
const MAX_QUEUED_FRAMES = 1000;
/** A client sending this many times its allowance within a second is disconnected. */
const FLOOD_DISCONNECT_FACTOR = 10;

export const CLOSE_POLICY = 1008;
export const CLOSE_GOING_AWAY = 1001;
export const CLOSE_TRY_AGAIN = 1013;

/**
 * One websocket: decodes frames, enforces the per-connection limits (messages per second, channels,
 * backlog), answers heartbeats and routes everything else to its channels. Frames are handled one
 * after the other, in the order they arrived, so a join is complete before the client's next message
 * is looked at.
 */
export class Connection {
  readonly channels = new Map<string, Channel>();
  lastSeen = performance.now();
  private readonly bucket: TokenBucket;
  private queue: Promise<void> = Promise.resolve();
  private queued = 0;
  private closed = false;
  private floodWindow = { startedAt: 0, dropped: 0, answered: 0 };

  constructor(
    readonly ws: WebSocket,
    readonly service: RealtimeService,
    readonly vsn: Vsn,
    /** The API key the socket connected with; the identity of channels that send no token. */
    readonly apikey: string,
    /** Over the connection limit: every join is refused, then the socket is closed. */
    readonly overLimit: boolean,
  ) {
    this.bucket = new TokenBucket(service.config.maxEventsPerSecond);
    ws.on('message', (data, isBinary) => this.onFrame(data as Buffer, isBinary));
    ws.on('close', () => void this.close());
    ws.on('error', () => ws.terminate());
  }

  // ----------------------------------------------------------------------------------------- sending

  send(data: string | Buffer): void {
    if (this.ws.readyState !== OPEN) return;
    if (this.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.service.log.warn('realtime: closing a connection that does not read its messages');
      this.ws.terminate();
      return;
    }
    this.ws.send(data);
  }

  reply(
    joinRef: string | null,
    ref: string | null,
    topic: string,
    status: 'ok' | 'error',
    response: unknown,
  ): void {
    this.send(encodeRaw(this.vsn, joinRef, ref, topic, 'phx_reply', JSON.stringify({ status, response })));
  }

  /** An error about a frame that named no usable ref: a `system` message on the `phoenix` topic. */
  private notify(reason: string): void {
    this.send(
      encodeRaw(
        this.vsn,
        null,
        null,
        'phoenix',
        'system',
        JSON.stringify({ extension: 'system', status: 'error', message: reason, channel: 'phoenix' }),
      ),
    );
  }

  forget(channel: Channel): void {
    if (this.channels.get(channel.topic) === channel) this.channels.delete(channel.topic);
  }

  // ---------------------------------------------------------------------------------------- receiving

  private onFrame(data: Buffer, isBinary: boolean): void {
    if (this.closed) return;
    this.lastSeen = performance.now();
    const decoded = decode(data, isBinary, this.vsn);
    if (!this.bucket.take()) {
      this.flooded(decoded);
      return;
    }
    if (this.queued >= MAX_QUEUED_FRAMES) {
      this.ws.close(CLOSE_POLICY, 'Too many pending messages');
      return;
    }
    this.queued++;
    this.queue = this.queue
      .then(() => this.dispatch(decoded))
      .catch((error) => this.service.log.error({ err: error }, 'realtime: handling a message failed'))
      .finally(() => {
        this.queued--;
      });
  }

  /**
   * Over the allowance: the message is dropped. A joined channel the client writes to is closed with
   * Supabase's "Too many messages per second"; other messages get an error reply (at most an
   * allowance's worth of them a second); a client that goes on at many times the allowance is
   * disconnected.
   */
  private flooded(decoded: Decoded): void {
    const now = performance.now();
    const limit = this.service.config.maxEventsPerSecond;
    if (now - this.floodWindow.startedAt > 1000)
      this.floodWindow = { startedAt: now, dropped: 0, answered: 0 };
    this.floodWindow.dropped++;
    if (this.floodWindow.dropped > limit * FLOOD_DISCONNECT_FACTOR) {
      this.ws.close(CLOSE_POLICY, 'Too many messages per second');
      return;
    }
    const { topic, ref } =
      decoded.kind === 'message'
        ? decoded.message
        : decoded.kind === 'user_broadcast'
          ? decoded.push
          : decoded;
    const channel = topic ? this.channels.get(topic) : undefined;
    if (channel?.state === 'joined') {
      this.enqueue(() => channel.shutdown(systemMessages.tooManyMessages()));
      return;
    }
    if (this.floodWindow.answered >= limit) return;
    this.floodWindow.answered++;
    if (ref !== null)
      this.reply(null, ref, topic ?? 'phoenix', 'error', { reason: reasons.tooManyMessages() });
    else this.notify(reasons.tooManyMessages());
  }

  private enqueue(task: () => Promise<void>): void {
    this.queue = this.queue
      .then(task)
      .catch((error) => this.service.log.error({ err: error }, 'realtime: handling a message failed'));
  }

  private async dispatch(decoded: Decoded): Promise<void> {
    if (this.closed) return;
    if (decoded.kind === 'malformed') {
      const reason = reasons.malformed(decoded.reason);
      if (decoded.ref !== null)
        this.reply(null, decoded.ref, decoded.topic ?? 'phoenix', 'error', { reason });
      else this.notify(reason);
      return;
    }
    if (decoded.kind === 'user_broadcast') {
      const channel = this.channels.get(decoded.push.topic);
      if (channel?.state !== 'joined') {
        this.reply(decoded.push.joinRef, decoded.push.ref, decoded.push.topic, 'error', {
          reason: reasons.unmatchedTopic(),
        });
        return;
      }
      await this.guarded(channel, async () => channel.userBroadcast(decoded.push));
      return;
    }
    const message = decoded.message;
    if (message.topic === 'phoenix') {
      if (message.event === 'heartbeat') this.reply(null, message.ref, 'phoenix', 'ok', {});
      else this.reply(null, message.ref, 'phoenix', 'error', { reason: reasons.unmatchedTopic() });
      return;
    }
    if (message.event === 'phx_join') {
      await this.join(message);
      return;
    }
    const channel = this.channels.get(message.topic);
    if (channel?.state !== 'joined') {
      // Phoenix answers like this, and a client that raced a server-side close expects it.
      if (message.event !== 'phx_leave') {
        this.reply(message.joinRef, message.ref, message.topic, 'error', {
          reason: reasons.unmatchedTopic(),
        });
      } else {
        this.reply(message.joinRef, message.ref, message.topic, 'ok', {});
      }
      return;
    }
    if (message.event === 'phx_leave') {
      this.reply(channel.joinRef, message.ref, message.topic, 'ok', {});
      await channel.close();
      return;
    }
    await this.guarded(channel, () => channel.handle(message));
  }

  /**
   * Runs a channel's handling of a message. An unexpected failure (the database went away while a
   * presence was being recorded, say) errors that channel only, as a crashed Phoenix channel does:
   * `phx_error`, after which realtime-js joins again.
   */
  private async guarded(channel: Channel, task: () => Promise<void>): Promise<void> {
    try {
      await task();
    } catch (error) {
      this.service.log.error({ err: error, topic: channel.topic }, 'realtime: a channel failed');
      this.send(encodeRaw(this.vsn, channel.joinRef, channel.joinRef, channel.topic, 'phx_error', '{}'));
      await channel.close();
    }
  }

  private async join(message: Message): Promise<void> {
    const refuse = (reason: string) =>
      this.reply(message.joinRef, message.ref, message.topic, 'error', { reason });
    if (this.overLimit) {
      refuse(reasons.tooManyConnections());
      this.ws.close(CLOSE_TRY_AGAIN, 'Too many connected users');
      return;
    }
    if (this.service.stopping) return refuse(reasons.shuttingDown());
    if (!message.topic.startsWith('realtime:')) return refuse(reasons.unmatchedTopic());

    // A second join of a joined topic replaces the first, as in Phoenix.
    const existing = this.channels.get(message.topic);
    if (existing) {
      this.send(encodeRaw(this.vsn, existing.joinRef, existing.joinRef, existing.topic, 'phx_close', '{}'));
      await existing.close();
    }
    if (this.channels.size >= this.service.config.maxChannelsPerClient)
      return refuse(reasons.tooManyChannels());

    const channel = new Channel(this, message.topic, message.joinRef ?? message.ref);
    this.channels.set(message.topic, channel);
    let joined = false;
    try {
      joined = await channel.join(message);
    } catch (error) {
      // Only the database can fail here; before the reply the join is refused, after it (presence
      // state) the channel errors and realtime-js joins again.
      this.service.log.error({ err: error, topic: channel.topic }, 'realtime: a join failed');
      if (channel.state === 'joined') {
        this.send(encodeRaw(this.vsn, channel.joinRef, channel.joinRef, channel.topic, 'phx_error', '{}'));
      } else {
        refuse(reasons.unavailable());
      }
      await channel.close();
    }
    if (!joined) this.forget(channel);
  }

  // ----------------------------------------------------------------------------------------- closing

  /** Closes every channel (releasing subscriptions and presence) once the socket has gone. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const channels = [...this.channels.values()];
    this.channels.clear();
    await Promise.all(channels.map((channel) => channel.close()));
    this.service.removeConnection(this);
  }

  get isClosed(): boolean {
    return this.closed;
  }
}
