import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { PROJECT_ROOT } from '../paths.ts';
import { claimFor } from './clients.ts';
import {
  AccountGoneError,
  type Database,
  type DatabaseLimits,
  DEFAULT_LIMITS,
  type NotificationHandler,
  type Queryable,
  type QueryResult,
  type RequestScope,
  SCOPE_CHECK_SQL,
  SCOPE_SQL,
  scopeParams,
  statementTimeoutError,
  statementTimeoutFor,
  TEXT_TYPE_OIDS,
} from './driver.ts';
import { Gate, ping } from './gate.ts';
import type { RequestBody, SerializedError, WorkerMessage } from './pglite-protocol.ts';

/**
 * The embedded database (decision 092, superseding parts of 002): PGlite runs in a worker thread, so
 * the server keeps answering while a statement runs, and a statement of an API request that runs
 * past its role's limit is ended by terminating that thread and opening the database again (PGlite
 * cannot cancel a statement; committed work is on disk, as after `kill -9`). PGlite is one
 * connection: the gate lets one piece of work at a time reach it, in fair turns between clients.
 */

export const WORKER_PATH = join(PROJECT_ROOT, 'server/db/pglite-worker.mjs');

/** PGlite's WebAssembly programs: the database itself, and initdb, which makes a new cluster. */
export interface PgliteModules {
  pglite: WebAssembly.Module;
  initdb: WebAssembly.Module;
}

let compiledModules: Promise<PgliteModules | undefined> | undefined;

/** Node's WebAssembly global: @types/node types its objects but not the global itself (lib.dom does). */
declare const WebAssembly: { compile(bytes: Uint8Array): Promise<WebAssembly.Module> };

/**
 * PGlite's programs, compiled once per process and handed to every database thread it starts
 * (decision 264). A thread then instantiates code the process already has instead of reading and
 * compiling about 9 MB of WebAssembly again (an open took 210 instead of 310 ms here), and the
 * compiled code lives as long as the process, instead of being made and freed with each thread:
 * V8's code-page bookkeeping has aborted processes that churn through many PGlite instances
 * (nodejs/node#64500). Undefined when they cannot be compiled here: each thread then loads its own.
 */
function pgliteModules(): Promise<PgliteModules | undefined> {
  compiledModules ??= (async () => {
    const dist = dirname(createRequire(join(PROJECT_ROOT, 'package.json')).resolve('@electric-sql/pglite'));
    const compile = async (name: string) => WebAssembly.compile(await readFile(join(dist, name)));
    const [pglite, initdb] = await Promise.all([compile('pglite.wasm'), compile('initdb.wasm')]);
    return { pglite, initdb };
  })().catch(() => undefined);
  return compiledModules;
}

export interface PgliteOptions {
  dataDir: string;
  limits?: Partial<DatabaseLimits>;
  log?: {
    warn(details: object, message: string): void;
    error(details: object, message: string): void;
  };
}

type Log = NonNullable<PgliteOptions['log']>;
const silent: Log = { warn() {}, error() {} };

function toError(serialized: SerializedError): Error {
  return Object.assign(new Error(serialized.message), serialized);
}

/** What PostgreSQL answers a statement sent in a transaction that an earlier failure aborted. */
function transactionAborted(): Error {
  return Object.assign(
    new Error('current transaction is aborted, commands ignored until end of transaction block'),
    { code: '25P02', severity: 'ERROR' },
  );
}

/** What a client of a PostgreSQL backend that was terminated receives. */
function connectionTerminated(): Error {
  return Object.assign(new Error('terminating connection: the embedded database thread was restarted'), {
    code: '57P01',
    severity: 'FATAL',
  });
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout | undefined;
  /** When the request was handed to the thread (performance.now()). */
  sentAt: number;
}

/**
 * The thread PGlite runs in: one at a time, replaced when it is terminated (a statement overran its
 * limit) or dies. `generation` counts the threads, so work begun on one never continues on the next.
 */
class DatabaseThread {
  #worker: Worker | undefined;
  #opening: Promise<void> | undefined;
  #generation = 0;
  #nextId = 1;
  #closed = false;
  readonly #pending = new Map<number, Pending>();

  constructor(
    private readonly dataDir: string,
    private readonly channels: () => Iterable<string>,
    private readonly onNotify: (channel: string, payload: string) => void,
    private readonly log: Log,
    /** Called after a thread replaced an earlier one (it listens again; notifications may be lost). */
    private readonly onRestart: () => void = () => {},
  ) {}

  /** Threads started after the first (a statement overran, the thread died): for `/metrics`. */
  restarts = 0;
  #started = false;

  get generation(): number {
    return this.#generation;
  }

  /** A thread is being started (or replaced). */
  get opening(): boolean {
    return this.#opening !== undefined;
  }

  /** Resolves once a thread is open, starting one when there is none. */
  ready(): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('the database is closed'));
    if (this.#worker && !this.#opening) return Promise.resolve();
    this.#opening ??= this.#start().finally(() => {
      this.#opening = undefined;
    });
    return this.#opening;
  }

  /**
   * Sends one request to the thread of `generation`. With a deadline, a request still running when
   * it passes is answered with PostgreSQL's statement-timeout error and the thread is replaced.
   */
  request(generation: number, body: RequestBody, deadlineMs?: number): Promise<unknown> {
    const worker = this.#worker;
    if (!worker || generation !== this.#generation || this.#opening) {
      return Promise.reject(transactionAborted());
    }
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const pending: Pending = { resolve, reject, timer: undefined, sentAt: performance.now() };
      if (deadlineMs !== undefined) {
        pending.timer = setTimeout(() => this.#overrun(worker, id, deadlineMs), deadlineMs);
      }
      this.#pending.set(id, pending);
      worker.postMessage({ ...body, id });
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#opening?.catch(() => {});
    const worker = this.#worker;
    if (!worker) return;
    // Forgotten first, so its exit after closing is not taken for a crash.
    this.#worker = undefined;
    this.#generation++;
    try {
      const closing = this.#post(worker, { op: 'close' });
      await Promise.race([closing, new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
    } catch {
      // terminated below either way; committed work is on disk
    }
    for (const pending of this.#pending.values()) pending.reject(connectionTerminated());
    this.#pending.clear();
    await worker.terminate();
  }

  async #start(): Promise<void> {
    const modules = await pgliteModules();
    const worker = new Worker(WORKER_PATH, {
      workerData: { dataDir: this.dataDir, textOids: Object.values(TEXT_TYPE_OIDS), modules },
    });
    await new Promise<void>((resolve, reject) => {
      const settle = (error?: Error) => {
        worker.off('message', onMessage);
        worker.off('error', settle);
        worker.off('exit', onExit);
        if (error) reject(error);
        else resolve();
      };
      const onMessage = (message: WorkerMessage) => {
        if (message.op === 'ready') settle();
        else if (message.op === 'failed') settle(toError(message.error));
      };
      const onExit = (code: number) =>
        settle(new Error(`the embedded database thread exited (code ${code}) while opening the database`));
      worker.on('message', onMessage);
      worker.on('error', settle);
      worker.on('exit', onExit);
    });
    worker.on('message', (message: WorkerMessage) => this.#onMessage(message));
    worker.on('error', (error) => this.#lost(worker, error));
    worker.on('exit', (code) =>
      this.#lost(worker, new Error(`the embedded database thread exited (${code})`)),
    );
    // The thread is current from here (a crash is noticed), but takes work only once `#opening`
    // ends. Notifications sent while no thread listened are lost; listeners poll as well.
    this.#worker = worker;
    try {
      for (const channel of this.channels()) await this.#post(worker, { op: 'listen', channel });
      if (this.#closed) throw new Error('the database is closed');
    } catch (error) {
      this.#lose(worker, connectionTerminated());
      await worker.terminate();
      throw error;
    }
    if (this.#started) {
      this.restarts++;
      setImmediate(this.onRestart);
    }
    this.#started = true;
  }

  /** A request outside any generation check: re-listening on a new thread, closing. */
  #post(worker: Worker, body: RequestBody): Promise<unknown> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject, timer: undefined, sentAt: performance.now() });
      worker.postMessage({ ...body, id });
    });
  }

  #onMessage(message: WorkerMessage): void {
    if (message.op === 'notify') {
      this.onNotify(message.channel, message.payload);
      return;
    }
    if (message.op !== 'result' && message.op !== 'error') return;
    const pending = this.#pending.get(message.id);
    if (!pending) return;
    this.#pending.delete(message.id);
    clearTimeout(pending.timer);
    if (message.op === 'result') pending.resolve(message.result);
    else pending.reject(toError(message.error));
  }

  #overrun(worker: Worker, id: number, limitMs: number): void {
    const pending = this.#pending.get(id);
    if (!pending || worker !== this.#worker) return;
    this.#pending.delete(id);
    pending.reject(statementTimeoutError());
    this.#replace(worker, (endedMs) =>
      this.log.warn(
        { limitMs, endedMs: Math.round(endedMs - pending.sentAt) },
        'embedded database: a statement ran past its limit and was ended; reopening the database',
      ),
    );
  }

  /**
   * Ends the thread of `generation` and opens the database on a new one: what is committed is on
   * disk, what was not is rolled back by PostgreSQL's recovery. For a statement past its limit, and
   * for a thread whose state is no longer known (a transaction that could not be rolled back).
   */
  discard(generation: number, reason: string): void {
    const worker = this.#worker;
    if (!worker || generation !== this.#generation) return;
    this.#replace(worker, () => this.log.error({ reason }, 'embedded database: reopening the database'));
  }

  #replace(worker: Worker, ended: (endedMs: number) => void): void {
    const started = performance.now();
    this.#lose(worker, connectionTerminated());
    this.#opening = (async () => {
      await worker.terminate();
      ended(performance.now());
      await this.#start();
      this.log.warn({ ms: Math.round(performance.now() - started) }, 'embedded database: reopened');
    })().finally(() => {
      this.#opening = undefined;
    });
    this.#opening.catch((error) => this.log.error({ err: error }, 'embedded database: reopening failed'));
  }

  /** The thread died on its own (a crash in PGlite): the next piece of work opens a new one. */
  #lost(worker: Worker, error: Error): void {
    if (worker !== this.#worker) return;
    this.log.error({ err: error }, 'embedded database: the database thread stopped; it will be reopened');
    this.#lose(worker, connectionTerminated());
    void worker.terminate();
  }

  /** Forgets the thread: work begun on it fails, the next piece of work waits for a new one. */
  #lose(worker: Worker, error: Error): void {
    if (worker !== this.#worker) return;
    this.#worker = undefined;
    this.#generation++;
    for (const pending of this.#pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(error);
    }
    this.#pending.clear();
  }
}

/**
 * The statements of one lease, in order. The first is sent right behind `opened` (the transaction's
 * BEGIN, not yet answered): the thread runs requests in the order they were sent, and if the BEGIN
 * failed, its error is the one the statement reports. Each later statement waits for the one before,
 * so its deadline starts when it is sent, as on a PostgreSQL connection.
 */
function session(
  thread: DatabaseThread,
  generation: number,
  deadlineMs: number | undefined,
  opened?: Promise<unknown>,
): Queryable {
  let tail: Promise<unknown> | undefined;
  const send = (body: RequestBody) => {
    let sent: Promise<unknown>;
    if (tail === undefined) {
      const request = thread.request(generation, body, deadlineMs);
      sent = opened
        ? opened.then(
            () => request,
            (error) => {
              request.catch(() => {});
              throw error;
            },
          )
        : request;
    } else {
      sent = tail.then(
        () => thread.request(generation, body, deadlineMs),
        () => thread.request(generation, body, deadlineMs),
      );
    }
    tail = sent.catch(() => {});
    return sent;
  };
  return {
    async query<Row>(sql: string, params: unknown[] = []): Promise<QueryResult<Row>> {
      return (await send({ op: 'query', sql, params })) as QueryResult<Row>;
    },
    async exec(sql: string): Promise<void> {
      await send({ op: 'exec', sql });
    },
  };
}

export async function openPglite(options: PgliteOptions): Promise<Database> {
  const limits: DatabaseLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const handlers = new Map<string, Set<NotificationHandler>>();
  const resetHandlers = new Set<() => void>();
  const thread = new DatabaseThread(
    options.dataDir,
    () => handlers.keys(),
    (channel, payload) => {
      for (const handler of handlers.get(channel) ?? []) handler(payload);
    },
    options.log ?? silent,
    () => {
      for (const handler of resetHandlers) handler();
    },
  );
  await thread.ready();
  // One connection: one piece of work at a time, whoever asks.
  const gate = new Gate(1, 1);
  let closed = false;

  const lease = async <T>(
    scope: RequestScope | undefined,
    fn: (generation: number) => Promise<T>,
    waitMs?: number,
  ) => {
    // While the database reopens nobody holds the connection: waiting for it is not waiting behind
    // other work, so it does not count against a request's DB_ACQUIRE_TIMEOUT_MS.
    await thread.ready();
    const claim = claimFor(scope, limits);
    const release = await gate.acquire(waitMs === undefined ? claim : { ...claim, waitMs });
    try {
      await thread.ready();
      return await fn(thread.generation);
    } finally {
      release();
    }
  };

  const inTransaction = async <T>(
    generation: number,
    scope: RequestScope | undefined,
    fn: (tx: Queryable) => Promise<T>,
  ): Promise<T> => {
    const deadlineMs = scope ? statementTimeoutFor(scope, limits) : undefined;
    const readOnly = scope?.readOnly === true;
    const first = scope
      ? {
          sql: scope.requireAccount ? SCOPE_CHECK_SQL : SCOPE_SQL,
          params: scopeParams(scope, deadlineMs ?? 0),
        }
      : undefined;
    // Not waited for: the first statement follows it at once, and reports its error.
    const opened = thread.request(
      generation,
      { op: 'begin', readOnly, ...(first ? { first } : {}) },
      deadlineMs,
    );
    opened.catch(() => {});
    const tx = session(thread, generation, deadlineMs, opened);
    try {
      if (scope?.requireAccount) {
        // The opening statement checked the account: its answer comes before any of the work.
        const checked = (await opened) as { rows: { exists?: unknown }[] } | undefined;
        if (checked?.rows[0]?.exists !== true) throw new AccountGoneError();
      }
      const result = await fn(tx);
      await opened;
      // The thread was replaced under this transaction (a statement overran): nothing was committed.
      if (thread.generation !== generation) throw statementTimeoutError();
      if (readOnly) {
        // A read-only transaction has nothing to commit: its COMMIT is sent and the connection handed
        // on at once; whatever comes next runs after it.
        thread
          .request(generation, { op: 'exec', sql: 'commit' })
          .catch((error) => thread.discard(generation, `commit of a read-only transaction failed: ${error}`));
      } else {
        await thread.request(generation, { op: 'exec', sql: 'commit' });
      }
      return result;
    } catch (error) {
      if (thread.generation === generation) {
        // A transaction left open would carry this one's writes into the next piece of work.
        await thread
          .request(generation, { op: 'exec', sql: 'rollback' })
          .catch((rollbackError) => thread.discard(generation, `rollback failed: ${rollbackError}`));
      }
      throw error;
    }
  };

  return {
    mode: 'embedded',
    query: (sql, params) =>
      lease(undefined, (generation) => session(thread, generation, undefined).query(sql, params)),
    exec: (sql) => lease(undefined, (generation) => session(thread, generation, undefined).exec(sql)),
    transaction: (fn) => lease(undefined, (generation) => inTransaction(generation, undefined, fn)),
    withScope: (scope, fn) => lease(scope, (generation) => inTransaction(generation, scope, fn)),
    async listen(channel, handler) {
      let set = handlers.get(channel);
      if (!set) {
        const fresh = new Set<NotificationHandler>();
        handlers.set(channel, fresh);
        set = fresh;
        try {
          await lease(undefined, (generation) => thread.request(generation, { op: 'listen', channel }));
        } catch (error) {
          handlers.delete(channel);
          throw error;
        }
      }
      set.add(handler);
      const own = set;
      return async () => {
        own.delete(handler);
        if (own.size > 0 || handlers.get(channel) !== own) return;
        handlers.delete(channel);
        await lease(undefined, (generation) => thread.request(generation, { op: 'unlisten', channel })).catch(
          () => {},
        );
      };
    },
    async ping() {
      // Reopening after an overrun: the database works, and asking it anything would only wait.
      if (thread.opening) return 'busy';
      return ping((waitMs) =>
        lease(undefined, (generation) => session(thread, generation, undefined).query('select 1'), waitMs),
      );
    },
    quiesce: (fn) =>
      lease(undefined, async (generation) => {
        const held = session(thread, generation, undefined);
        await held.exec('checkpoint');
        return fn(held);
      }),
    get activity() {
      return gate.activity;
    },
    onListenerReset(handler) {
      resetHandlers.add(handler);
      return () => resetHandlers.delete(handler);
    },
    get listening() {
      return !closed && !thread.opening;
    },
    get restarts() {
      return thread.restarts;
    },
    async close() {
      if (closed) return;
      closed = true;
      gate.close();
      await gate.drained(5000);
      await thread.close();
    },
  };
}
