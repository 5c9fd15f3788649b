import { admissionRefused, admissionWait } from '../metrics.ts';

/**
 * Admission to the database's connections (decision 092). Both drivers put every piece of work — a
 * query, a transaction — behind one gate sized like their connections (the pool's size on
 * PostgreSQL, one on PGlite), so that:
 * - a request never waits long for a connection: after `waitMs` it is refused with a 503 and
 *   `Retry-After`, in its service's format, instead of a 500 when the pool gives up seconds later;
 * - one client (an anonymous address, a signed-in user) holds at most `perClient` connections: its
 *   extra work waits behind its own, never in front of everyone else's;
 * - waiting work is served client by client in turn, not first come first served, so one client
 *   sending many requests at once only delays itself.
 * The server's own work (realtime, housekeeping, start-up) is a client too, but uncapped and it
 * waits as long as it takes.
 */

export interface Claim {
  /** Who is asking: `addr:<ip>`, `user:<id>`, `service` or `server`. */
  key: string;
  /** Held connections of this key are limited to the gate's `perClient`. */
  capped: boolean;
  /** Longest wait for a connection in milliseconds; undefined waits as long as it takes. */
  waitMs: number | undefined;
}

/** How many clients the gate remembers having served (their turn order); older ones count as new. */
const REMEMBERED = 10_000;

/** How long /health waits for a connection before it answers `busy` instead. */
export const PING_WAIT_MS = 250;

/**
 * Runs `select 1` through `run` (given how long it may wait for a connection): `busy` when every
 * connection stays taken by work within its limits — the database answers, just not at once.
 */
export async function ping(run: (waitMs: number) => Promise<unknown>): Promise<'ok' | 'busy'> {
  try {
    await run(PING_WAIT_MS);
    return 'ok';
  } catch (error) {
    if (error instanceof DatabaseBusyError) return 'busy';
    throw error;
  }
}

/**
 * No connection came free in time: the database is busy. The database layer's own error; each
 * service answers it 503 with Retry-After in its format (the data API's PGRST003, storage's
 * DatabaseTimeout), and `http/errors.ts` for every other (`toApiError`).
 */
export class DatabaseBusyError extends Error {
  constructor(readonly waitedMs: number) {
    super('The server is busy. Please retry in a moment.');
    this.name = 'DatabaseBusyError';
  }
}

/** The database was closed while work was waiting for it. */
export class DatabaseClosedError extends Error {
  constructor() {
    super('the database is closed');
    this.name = 'DatabaseClosedError';
  }
}

interface Waiter {
  claim: Claim;
  since: number;
  grant: (release: () => void) => void;
  fail: (error: Error) => void;
  timer: NodeJS.Timeout | undefined;
}

export class Gate {
  #free: number;
  readonly #held = new Map<string, number>();
  /** Waiting work by key. */
  readonly #queues = new Map<string, Waiter[]>();
  /**
   * When each key was last served (the least recent goes next; a key never seen goes first), oldest
   * first. Kept after a key goes idle — a client that keeps coming back must not look new each
   * time, or it would always be served before one that waits — and forgotten beyond REMEMBERED keys.
   */
  readonly #lastServed = new Map<string, number>();
  #turn = 0;
  #closed = false;
  #drained: (() => void)[] = [];

  constructor(
    readonly capacity: number,
    readonly perClient: number,
  ) {
    this.#free = capacity;
  }

  /** Connections in use, the gate's capacity, and work waiting for a connection, now. */
  get activity(): { inUse: number; capacity: number; waiting: number } {
    let waiting = 0;
    for (const queue of this.#queues.values()) waiting += queue.length;
    return { inUse: this.capacity - this.#free, capacity: this.capacity, waiting };
  }

  /** Resolves to the function that gives the connection back (call it exactly once). */
  acquire(claim: Claim): Promise<() => void> {
    if (this.#closed) return Promise.reject(new DatabaseClosedError());
    if (this.#free > 0 && this.#eligible(claim) && !this.#queues.has(claim.key)) {
      return Promise.resolve(this.#take(claim.key));
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        claim,
        since: performance.now(),
        grant: resolve,
        fail: reject,
        timer: undefined,
      };
      if (claim.waitMs !== undefined) {
        waiter.timer = setTimeout(() => {
          this.#remove(waiter);
          admissionRefused.inc();
          reject(new DatabaseBusyError(Math.round(performance.now() - waiter.since)));
        }, claim.waitMs);
        waiter.timer.unref();
      }
      const queue = this.#queues.get(claim.key);
      if (queue) queue.push(waiter);
      else this.#queues.set(claim.key, [waiter]);
    });
  }

  /** Refuses new work and fails everything still waiting. */
  close(): void {
    this.#closed = true;
    for (const queue of this.#queues.values()) {
      for (const waiter of queue) {
        clearTimeout(waiter.timer);
        waiter.fail(new DatabaseClosedError());
      }
    }
    this.#queues.clear();
    this.#lastServed.clear();
  }

  /** Resolves when no connection is in use any more, or after `limitMs` at the latest. */
  drained(limitMs: number): Promise<void> {
    if (this.#free === this.capacity) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, limitMs);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#drained.push(done);
    });
  }

  #eligible(claim: Claim): boolean {
    return !claim.capped || (this.#held.get(claim.key) ?? 0) < this.perClient;
  }

  #take(key: string): () => void {
    this.#free--;
    this.#held.set(key, (this.#held.get(key) ?? 0) + 1);
    this.#lastServed.delete(key);
    this.#lastServed.set(key, this.#turn++);
    for (const oldest of this.#lastServed.keys()) {
      if (this.#lastServed.size <= REMEMBERED) break;
      this.#lastServed.delete(oldest);
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#free++;
      const held = (this.#held.get(key) ?? 1) - 1;
      if (held > 0) this.#held.set(key, held);
      else this.#held.delete(key);
      this.#dispatch();
      if (this.#free === this.capacity) for (const done of this.#drained.splice(0)) done();
    };
  }

  /**
   * Hands free connections to waiting keys, the one served least recently first (a key never served
   * before goes first of all), skipping keys at their share.
   */
  #dispatch(): void {
    while (this.#free > 0) {
      let chosen: Waiter[] | undefined;
      let chosenTurn = Number.POSITIVE_INFINITY;
      for (const [key, queue] of this.#queues) {
        const head = queue[0];
        if (!head || !this.#eligible(head.claim)) continue;
        const turn = this.#lastServed.get(key) ?? -1;
        if (turn < chosenTurn) {
          chosen = queue;
          chosenTurn = turn;
        }
      }
      const waiter = chosen?.shift();
      if (!waiter) return;
      if (chosen?.length === 0) this.#queues.delete(waiter.claim.key);
      clearTimeout(waiter.timer);
      admissionWait.observe((performance.now() - waiter.since) / 1000);
      waiter.grant(this.#take(waiter.claim.key));
    }
  }

  #remove(waiter: Waiter): void {
    const queue = this.#queues.get(waiter.claim.key);
    if (!queue) return;
    const index = queue.indexOf(waiter);
    if (index !== -1) queue.splice(index, 1);
    if (queue.length === 0) this.#queues.delete(waiter.claim.key);
  }
}
