// The embedded database's thread (decision 092). PGlite runs here, off the server's main thread, so a
// long statement never stops the server from answering, and the server can end a statement that
// runs past its limit the only way PGlite allows — by terminating this thread — and open the
// database again. Everything it writes goes straight to DATA_DIR through Node's file system, so a
// terminated thread loses what a killed process would: nothing that was committed.
//
// Plain JavaScript because Node 20 cannot load TypeScript in a worker thread without a loader, and
// loading one (tsx) costs about 0.3 s on every open. The messages it speaks are typed on the other
// side, in pglite-protocol.ts.
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { fuzzystrmatch } from '@electric-sql/pglite/contrib/fuzzystrmatch';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

/** @type {{ dataDir: string, textOids: number[], modules?: import('./pglite.ts').PgliteModules }} */
const { dataDir, textOids, modules } = workerData;
const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
const path = join(dataDir, 'db');
const asText = (/** @type {string} */ value) => value;
const parsers = Object.fromEntries(textOids.map((oid) => [oid, asText]));
// Loaded on every open: an index built with an extension needs its library whenever it is used.
const extensions = { pg_trgm, fuzzystrmatch };
// PGlite's programs as the server's main thread compiled them, once per process (decision 264).
const programs = modules ? { pgliteWasmModule: modules.pglite, initdbWasmModule: modules.initdb } : {};

/** The fields of a PostgreSQL error that callers read; the query and its parameters stay here. */
const ERROR_FIELDS = [
  'code',
  'severity',
  'detail',
  'hint',
  'position',
  'internalPosition',
  'internalQuery',
  'where',
  'schema',
  'table',
  'column',
  'dataType',
  'constraint',
  'routine',
];

function serializeError(/** @type {any} */ error) {
  /** @type {Record<string, unknown>} */
  const out = { message: error instanceof Error ? error.message : String(error) };
  for (const field of ERROR_FIELDS) {
    if (error && typeof error === 'object' && error[field] !== undefined) out[field] = error[field];
  }
  return out;
}

async function exists(/** @type {string} */ dir) {
  try {
    await stat(join(dir, 'PG_VERSION'));
    return true;
  } catch {
    return false;
  }
}

/**
 * Creates the cluster in a scratch directory and renames it into place only once it is complete, so a
 * first start interrupted half-way (Ctrl-C, kill -9, power loss) never leaves a directory that PGlite
 * cannot open. Scratch directories from earlier interrupted starts are removed first.
 */
async function ensureCluster() {
  await mkdir(dataDir, { recursive: true });
  for (const entry of await readdir(dataDir)) {
    if (entry.startsWith('db.init-')) await rm(join(dataDir, entry), { recursive: true, force: true });
  }
  if (await exists(path)) return;
  const scratch = join(dataDir, `db.init-${randomBytes(4).toString('hex')}`);
  const fresh = await PGlite.create(scratch, { parsers, ...programs });
  await fresh.close();
  await rm(path, { recursive: true, force: true });
  await rename(scratch, path);
}

/** @type {PGlite} */
let pg;
try {
  await ensureCluster();
  pg = await PGlite.create(path, { parsers, extensions, ...programs });
} catch (error) {
  port.postMessage({ op: 'failed', error: serializeError(error) });
  process.exit(1);
}

/** @type {Map<string, () => Promise<void>>} */
const listening = new Map();

/**
 * @param {string} sql
 * @param {unknown[]} params
 */
async function query(sql, params) {
  const result = await pg.query(sql, params);
  return {
    rows: result.rows,
    rowCount: result.affectedRows || result.rows.length,
    fields: result.fields.map((field) => ({ name: field.name, dataTypeID: field.dataTypeID })),
  };
}

/** @param {import('./pglite-protocol.ts').WorkerRequest} request */
async function run(request) {
  switch (request.op) {
    case 'query':
      return query(request.sql, request.params);
    case 'begin':
      await pg.exec(request.readOnly ? 'begin read only' : 'begin');
      return request.first ? query(request.first.sql, request.first.params) : undefined;
    case 'exec':
      await pg.exec(request.sql);
      return undefined;
    case 'listen':
      if (!listening.has(request.channel)) {
        const channel = request.channel;
        listening.set(
          channel,
          await pg.listen(channel, (payload) => port.postMessage({ op: 'notify', channel, payload })),
        );
      }
      return undefined;
    case 'unlisten':
      await listening.get(request.channel)?.();
      listening.delete(request.channel);
      return undefined;
    case 'close':
      await pg.close();
      return undefined;
  }
}

/** @param {import('./pglite-protocol.ts').WorkerRequest} request */
async function answer(request) {
  try {
    const result = await run(request);
    port.postMessage({ op: 'result', id: request.id, result });
  } catch (error) {
    port.postMessage({ op: 'error', id: request.id, error: serializeError(error) });
    // A trap inside PostgreSQL's WebAssembly leaves it in a state nobody knows: this thread ends, and
    // the server opens the database on a new one (as after kill -9, nothing committed is lost).
    if (error instanceof WebAssembly.RuntimeError) process.exit(1);
  }
  if (request.op === 'close') port.close();
}

// Strictly one request after another, in the order they arrived: the server sends a transaction's
// BEGIN and its first statement, or its COMMIT and the next transaction's BEGIN, back to back.
let queue = Promise.resolve();
port.on('message', (/** @type {import('./pglite-protocol.ts').WorkerRequest} */ request) => {
  queue = queue.then(() => answer(request));
});

port.postMessage({ op: 'ready' });
