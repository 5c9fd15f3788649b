/**
 * The messages between the server and the embedded database's thread (pglite-worker.mjs). Requests
 * run one after another in the order they were sent, so a transaction's statements may be sent
 * without waiting for the one before. Each carries an id answered by exactly one `result` or `error`; `notify` relays a NOTIFY on a channel the
 * thread listens to; `ready` or `failed` is the thread's first message, once the database is open.
 */
export type RequestBody =
  | { op: 'query'; sql: string; params: unknown[] }
  /** BEGIN (READ ONLY), then a first statement if given: one round trip instead of two. */
  | { op: 'begin'; readOnly: boolean; first?: { sql: string; params: unknown[] } }
  | { op: 'exec'; sql: string }
  | { op: 'listen'; channel: string }
  | { op: 'unlisten'; channel: string }
  | { op: 'close' };

export type WorkerRequest = RequestBody & { id: number };

/** A PostgreSQL error as the thread passes it on: its message and the fields callers read. */
export type SerializedError = { message: string } & Record<string, unknown>;

export type WorkerMessage =
  | { op: 'ready' }
  | { op: 'failed'; error: SerializedError }
  | { op: 'result'; id: number; result: unknown }
  | { op: 'error'; id: number; error: SerializedError }
  | { op: 'notify'; channel: string; payload: string };
