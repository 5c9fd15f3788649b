import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import {
  type Database,
  type Queryable,
  type QueryResult,
  type RequestScope,
  SCOPE_SQL,
  scopeParams,
  TEXT_TYPE_OIDS,
} from './driver.ts';

const asText = (value: string) => value;
const parsers = Object.fromEntries(Object.values(TEXT_TYPE_OIDS).map((oid) => [oid, asText]));

type PGliteLike = Pick<PGlite, 'query' | 'exec'> | Transaction;

function wrap(target: PGliteLike): Queryable {
  return {
    async query<Row>(sql: string, params: unknown[] = []): Promise<QueryResult<Row>> {
      const result = await target.query<Row>(sql, params);
      return {
        rows: result.rows,
        rowCount: result.affectedRows || result.rows.length,
        fields: result.fields.map((field) => ({ name: field.name, dataTypeID: field.dataTypeID })),
      };
    },
    async exec(sql: string): Promise<void> {
      await target.exec(sql);
    },
  };
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(join(path, 'PG_VERSION'));
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
async function ensureCluster(dataDir: string, path: string): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  for (const entry of await readdir(dataDir)) {
    if (entry.startsWith('db.init-')) await rm(join(dataDir, entry), { recursive: true, force: true });
  }
  if (await exists(path)) return;
  const scratch = join(dataDir, `db.init-${randomBytes(4).toString('hex')}`);
  const fresh = await PGlite.create(scratch, { parsers });
  await fresh.close();
  await rm(path, { recursive: true, force: true });
  await rename(scratch, path);
}

export async function openPglite(options: {
  dataDir: string;
  statementTimeoutMs: number;
}): Promise<Database> {
  const path = join(options.dataDir, 'db');
  await ensureCluster(options.dataDir, path);
  const pg = await PGlite.create(path, { parsers });
  const root = wrap(pg);
  let closed = false;

  return {
    mode: 'embedded',
    query: root.query,
    exec: root.exec,
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    withScope: (scope: RequestScope, fn) =>
      pg.transaction(async (tx) => {
        await tx.query(SCOPE_SQL, scopeParams(scope, options.statementTimeoutMs));
        return fn(wrap(tx));
      }),
    async listen(channel, handler) {
      const unsubscribe = await pg.listen(channel, handler);
      return async () => unsubscribe();
    },
    async close() {
      if (closed) return;
      closed = true;
      await pg.close();
    },
  };
}
