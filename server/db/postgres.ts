import pg from 'pg';
import { redact } from '../config.ts';
import { OperatorError } from '../operator-error.ts';
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
  statementTimeoutFor,
  TEXT_TYPE_OIDS,
} from './driver.ts';
import { Gate, ping } from './gate.ts';
import { quoteIdent } from './sql.ts';

const textOids = new Set<number>(Object.values(TEXT_TYPE_OIDS));
// Arrays of those types come back as arrays of PostgreSQL's text, like the element types.
const textArrayOids = new Set<number>([1016, 1231, 1182, 1183, 1115, 1185, 1187, 1270]);
const parseTextArray = (pg.types.getTypeParser as (oid: number) => (value: string) => unknown)(1009);

const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (textOids.has(oid)) return (value: string) => value;
    if (textArrayOids.has(oid)) return parseTextArray;
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

/** The `application_name` of each process's listening connection. */
export const LISTENER_NAME = 'highgrade listener';

export class DatabaseUnreachableError extends OperatorError {
  constructor(url: string, cause: unknown) {
    super(`Cannot reach the database at ${redact(url)}: ${(cause as Error).message || String(cause)}`);
  }
}

function wrap(client: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<Row>(sql: string, params: unknown[] = []): Promise<QueryResult<Row>> {
      const result = await client.query({ text: sql, values: params });
      return {
        rows: result.rows as Row[],
        rowCount: result.rowCount ?? result.rows.length,
        fields: result.fields.map((field) => ({ name: field.name, dataTypeID: field.dataTypeID })),
      };
    },
    async exec(sql: string): Promise<void> {
      await client.query(sql);
    },
  };
}

/**
 * `begin` and SCOPE_SQL as one simple-protocol query: SCOPE_SQL's parameters become literals escaped
 * by node-postgres (`escapeLiteral`: quotes doubled, and backslashes with an E'' string), so one round
 * trip instead of two opens every API transaction on PostgreSQL.
 */
export function beginScoped(scope: RequestScope, timeoutMs: number): string | undefined {
  const raw = scopeParams(scope, timeoutMs).map(String);
  // A NUL cannot travel in a simple query (it ends the message): such a scope goes as parameters,
  // where PostgreSQL refuses it with its own error.
  if (raw.some((value) => value.includes('\0'))) return undefined;
  const values = raw.map((value) => pg.escapeLiteral(value));
  const scoped = (scope.requireAccount ? SCOPE_CHECK_SQL : SCOPE_SQL).replace(
    /\$(\d+)/g,
    (_, n: string) => values[Number(n) - 1] as string,
  );
  return `${scope.readOnly ? 'begin read only' : 'begin'}; ${scoped}`;
}

export async function openPostgres(options: {
  url: string;
  poolMax: number;
  limits?: Partial<DatabaseLimits>;
  onError?: (error: Error) => void;
}): Promise<Database> {
  const limits: DatabaseLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolMax,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
    types,
  });
  // An idle client losing its connection must not take the process down; the pool replaces it.
  pool.on('error', (error) => options.onError?.(error));
  try {
    await pool.query('select 1');
  } catch (error) {
    await pool.end().catch(() => {});
    throw new DatabaseUnreachableError(options.url, error);
  }

  // The pool never has more work than connections: the gate queues the rest fairly and turns a
  // request away after `acquireTimeoutMs` (decision 092), before the pool's own timeout could.
  const gate = new Gate(options.poolMax, Math.min(limits.perClient, options.poolMax));
  const lease = async <T>(
    scope: RequestScope | undefined,
    fn: () => Promise<T>,
    waitMs?: number,
  ): Promise<T> => {
    const claim = claimFor(scope, limits);
    const release = await gate.acquire(waitMs === undefined ? claim : { ...claim, waitMs });
    try {
      return await fn();
    } finally {
      release();
    }
  };
  const root = wrap(pool);
  const transaction = async <T>(fn: (tx: Queryable) => Promise<T>, scope?: RequestScope): Promise<T> => {
    const client = await pool.connect();
    let broken = false;
    try {
      // statement_timeout set here, for this transaction only, is what ends an API statement. With a
      // scope, `begin` and the scope go in one round trip (simple protocol, values as escaped literals).
      if (scope) {
        const timeoutMs = statementTimeoutFor(scope, limits);
        const opening = beginScoped(scope, timeoutMs);
        let exists: unknown = true;
        if (opening !== undefined) {
          const results = (await client.query(opening)) as unknown as pg.QueryResult[];
          if (scope.requireAccount) exists = results.at(-1)?.rows[0]?.exists;
        } else {
          await client.query(scope.readOnly ? 'begin read only' : 'begin');
          const set = await client.query(
            scope.requireAccount ? SCOPE_CHECK_SQL : SCOPE_SQL,
            scopeParams(scope, timeoutMs),
          );
          if (scope.requireAccount) exists = set.rows[0]?.exists;
        }
        if (exists !== true) throw new AccountGoneError();
      } else await client.query('begin');
      const result = await fn(wrap(client));
      await client.query('commit');
      return result;
    } catch (error) {
      try {
        await client.query('rollback');
      } catch {
        broken = true;
      }
      throw error;
    } finally {
      client.release(broken);
    }
  };

  // One dedicated connection carries every LISTEN of this process. When it drops, it is re-opened
  // (with back-off) and every channel listened to again; then the reset handlers run, so each
  // consumer re-reads what notifications lost in between would have told it (decision 172).
  let listener: Promise<pg.Client> | undefined;
  let reconnectDelayMs = 100;
  let connectedOnce = false;
  let listening = false;
  const handlers = new Map<string, Set<NotificationHandler>>();
  const resetHandlers = new Set<() => void>();
  const reset = () => {
    for (const handler of resetHandlers) {
      try {
        handler();
      } catch (error) {
        options.onError?.(error as Error);
      }
    }
  };
  const scheduleReconnect = () => {
    const delay = reconnectDelayMs;
    reconnectDelayMs = Math.min(reconnectDelayMs * 2, 10_000);
    setTimeout(() => {
      if (closed || handlers.size === 0 || listener) return;
      listenerClient().catch((error) => {
        options.onError?.(error);
        scheduleReconnect();
      });
    }, delay).unref();
  };
  const connectListener = async (): Promise<pg.Client> => {
    // Named, so an operator (or a test) can find it in pg_stat_activity.
    const client = new pg.Client({ connectionString: options.url, types, application_name: LISTENER_NAME });
    let gone = false;
    const lost = (error?: Error) => {
      if (gone) return;
      gone = true;
      listening = false;
      if (error) options.onError?.(error);
      if (closed) return;
      listener = undefined;
      scheduleReconnect();
    };
    client.on('notification', (message) => {
      for (const handler of handlers.get(message.channel) ?? []) handler(message.payload ?? '');
    });
    client.on('error', lost);
    client.on('end', () => lost());
    await client.connect();
    for (const channel of handlers.keys()) await client.query(`listen ${quoteIdent(channel)}`);
    reconnectDelayMs = 100;
    listening = !gone;
    if (connectedOnce) setImmediate(reset);
    connectedOnce = true;
    return client;
  };
  const listenerClient = (): Promise<pg.Client> => {
    listener ??= connectListener().catch((error) => {
      listener = undefined;
      throw error;
    });
    return listener;
  };

  let closed = false;
  return {
    mode: 'postgres',
    query: (sql, params) => lease(undefined, () => root.query(sql, params)),
    exec: (sql) => lease(undefined, () => root.exec(sql)),
    transaction: (fn) => lease(undefined, () => transaction(fn)),
    withScope: (scope, fn) => lease(scope, () => transaction(fn, scope)),
    ping: () => ping((waitMs) => lease(undefined, () => root.query('select 1'), waitMs)),
    get activity() {
      return gate.activity;
    },
    async listen(channel, handler) {
      let set = handlers.get(channel);
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
        const client = await listenerClient();
        // A freshly (re)connected client already listens to every known channel.
        await client.query(`listen ${quoteIdent(channel)}`);
      }
      set.add(handler);
      return async () => {
        set.delete(handler);
        if (set.size === 0 && handlers.get(channel) === set) {
          handlers.delete(channel);
          const client = await listener?.catch(() => undefined);
          await client?.query(`unlisten ${quoteIdent(channel)}`).catch(() => {});
        }
      };
    },
    onListenerReset(handler) {
      resetHandlers.add(handler);
      return () => resetHandlers.delete(handler);
    },
    get listening() {
      return listening;
    },
    restarts: 0,
    async close() {
      if (closed) return;
      closed = true;
      listening = false;
      const closing = listener?.then((client) => client.end()).catch(() => {});
      listener = undefined;
      gate.close();
      await gate.drained(5000);
      await Promise.all([closing, pool.end()]);
    },
  };
}
