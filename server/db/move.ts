import pg from 'pg';
import { OperatorError } from '../operator-error.ts';
import type { Database, Queryable } from './driver.ts';
import { migrate } from './migrate.ts';

/**
 * Moving an embedded install to PostgreSQL (decision 218): the empty target is migrated with the same
 * files as the source, then every table's rows are copied in one transaction on the target with
 * `session_replication_role = replica` (no trigger fires, so audit entries, tallies and foreign-key
 * checks are not run a second time on rows that already passed them), the sequences take the
 * source's positions, and each table's row count is compared before the transaction commits. A move
 * that fails leaves the target migrated but without data: drop it, create it again, run again.
 */

export class MoveError extends OperatorError {}

export interface MovedTable {
  table: string;
  rows: number;
}

export interface MoveResult {
  tables: MovedTable[];
  rows: number;
  sequences: number;
  /** The whole move, migrations included. */
  ms: number;
  /** The copy alone (rows, sequences and the count check), for rows per second. */
  copyMs: number;
}

/** Schemas that are PostgreSQL's own, never copied. */
const SYSTEM_SCHEMAS = `n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')
  and n.nspname not like 'pg_temp%' and n.nspname not like 'pg_toast_temp%'`;

/** The bookkeeping the target's own migration run wrote: the same files, so not copied. */
const SKIPPED = new Set(['_platform.migrations']);

/** Rows per round trip of the copy. */
const BATCH = 2000;

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;
const qualified = (schema: string, name: string) => `${quoteIdent(schema)}.${quoteIdent(name)}`;

interface TableShape {
  schema: string;
  name: string;
  /** Columns rows are written to: not generated ones. */
  columns: string[];
  identityAlways: boolean;
}

/** Every ordinary table outside PostgreSQL's own schemas, with its writable columns. */
async function tablesOf(db: Pick<Queryable, 'query'>): Promise<Map<string, TableShape>> {
  const { rows } = await db.query<{
    schema: string;
    name: string;
    columns: string[] | string;
    identity_always: boolean;
  }>(
    `select n.nspname as schema, c.relname as name,
            coalesce(array_agg(a.attname::text order by a.attnum)
              filter (where a.attgenerated = ''), '{}') as columns,
            bool_or(a.attidentity = 'a') as identity_always
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      where c.relkind = 'r' and ${SYSTEM_SCHEMAS}
        and not exists (select 1 from pg_depend d where d.objid = c.oid and d.deptype = 'e')
      group by n.nspname, c.relname
      order by n.nspname, c.relname`,
  );
  const tables = new Map<string, TableShape>();
  for (const row of rows) {
    const columns = Array.isArray(row.columns) ? row.columns : parseTextArray(row.columns);
    tables.set(`${row.schema}.${row.name}`, {
      schema: row.schema,
      name: row.name,
      columns,
      identityAlways: row.identity_always === true,
    });
  }
  return tables;
}

/** `{a,b,"c d"}` as PGlite may hand back a text[] (column names only: no escapes beyond quotes). */
function parseTextArray(text: string): string[] {
  const inner = text.replace(/^\{|\}$/g, '');
  if (inner === '') return [];
  return inner.split(',').map((item) => item.replace(/^"|"$/g, '').replaceAll('\\"', '"'));
}

async function sequencesOf(db: Pick<Queryable, 'query'>): Promise<string[]> {
  const { rows } = await db.query<{ schema: string; name: string }>(
    `select n.nspname as schema, c.relname as name from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
      where c.relkind = 'S' and ${SYSTEM_SCHEMAS}
      order by 1, 2`,
  );
  return rows.map((row) => qualified(row.schema, row.name));
}

/**
 * What the target holds already: anything but PostgreSQL's own schemas and an empty `public` counts.
 * Roles are the cluster's, not the database's, and may exist (another database's install made them).
 */
export async function targetContents(target: pg.Client): Promise<string[]> {
  const { rows } = await target.query<{ what: string }>(
    `select what from (
     select case when c.relkind in ('r', 'p') then 0 else 1 end as rank, format('%s %I.%I', case c.relkind when 'r' then 'table' when 'v' then 'view'
              when 'm' then 'materialized view' when 'S' then 'sequence' when 'p' then 'table'
              when 'f' then 'foreign table' else 'relation' end, n.nspname, c.relname) as what
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'v', 'm', 'S', 'p', 'f') and ${SYSTEM_SCHEMAS}
     union all
     select 2, format('schema %I', n.nspname) from pg_namespace n
      where ${SYSTEM_SCHEMAS} and n.nspname <> 'public'
     union all
     select 3, format('function %I.%I', n.nspname, p.proname) from pg_proc p
       join pg_namespace n on n.oid = p.pronamespace
      where ${SYSTEM_SCHEMAS}
        and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
     ) found order by rank, what`,
  );
  return rows.map((row) => row.what);
}

async function appliedFiles(db: Pick<Queryable, 'query'>): Promise<string[]> {
  const { rows } = await db.query<{ file: string }>(
    `select layer || '/' || name || ' ' || checksum as file from _platform.migrations order by 1`,
  );
  return rows.map((row) => row.file);
}

export interface MoveOptions {
  /** The embedded database, opened (its DATA_DIR locked by the caller). */
  source: Database;
  /** The target's URL: an empty database the connecting role may migrate (superuser, see decision 218). */
  targetUrl: string;
  /** Opens the target as the server does, for the migrator. */
  openTarget: (url: string) => Promise<Database>;
  progress?: (message: string) => void;
}

export async function moveDatabase(options: MoveOptions): Promise<MoveResult> {
  const { source, targetUrl } = options;
  const say = options.progress ?? (() => {});
  const started = performance.now();

  const client = new pg.Client({ connectionString: targetUrl });
  try {
    await client.connect();
  } catch (error) {
    throw new MoveError(`cannot connect to ${redact(targetUrl)}: ${(error as Error).message}`);
  }
  try {
    const found = await targetContents(client);
    if (found.length > 0) {
      const shown = found.slice(0, 5).join(', ') + (found.length > 5 ? `, … (${found.length} in all)` : '');
      throw new MoveError(
        `The target database ${redact(targetUrl)} is not empty (${shown}). db:move copies into an empty ` +
          'database only: create one (createdb NAME) and give its URL.',
      );
    }

    // The source first, so both run the same files: an install last started by an older release gets
    // this release's migrations, as its next start would have applied them.
    say('migrating the embedded database to this release');
    await migrate(source);
    say('migrating the target database');
    const target = await options.openTarget(targetUrl);
    try {
      await migrate(target);
    } finally {
      await target.close();
    }
    const onTarget = asQueryable(client);
    const [sourceFiles, targetFiles] = [await appliedFiles(source), await appliedFiles(onTarget)];
    if (sourceFiles.join('\n') !== targetFiles.join('\n')) {
      throw new MoveError('The target was migrated with other files than the embedded database holds.');
    }

    const [sourceTables, targetTables] = [await tablesOf(source), await tablesOf(onTarget)];
    const missing = [...sourceTables.keys()].filter((key) => !targetTables.has(key));
    if (missing.length > 0) {
      throw new MoveError(
        `These tables exist in the embedded database but not in the migrated target (made outside the migrations?): ${missing.join(', ')}. Add them to a migration first.`,
      );
    }
    const tables = [...sourceTables.values()].filter(
      (table) => !SKIPPED.has(`${table.schema}.${table.name}`),
    );
    for (const table of tables) {
      const other = targetTables.get(`${table.schema}.${table.name}`) as TableShape;
      const lacking = table.columns.filter((column) => !other.columns.includes(column));
      if (lacking.length > 0) {
        throw new MoveError(
          `${table.schema}.${table.name} has columns the migrated target lacks: ${lacking.join(', ')}`,
        );
      }
    }

    const moved: MovedTable[] = [];
    const copying = performance.now();
    await client.query('begin');
    try {
      // Rows arrive as they were written: no trigger fires (audit, tallies, foreign keys).
      await client.query('set local session_replication_role = replica');
      // Rows the migrations seeded are in the source too: they come back with the copy.
      await client.query(`truncate ${tables.map((t) => qualified(t.schema, t.name)).join(', ')}`);
      for (const table of tables) {
        const rows = await copyTable(source, client, table);
        moved.push({ table: `${table.schema}.${table.name}`, rows });
        if (rows > 0) say(`${table.schema}.${table.name}: ${rows} rows`);
      }

      const sequences = await sequencesOf(source);
      for (const sequence of sequences) {
        const { rows } = await source.query<{ last_value: string; is_called: boolean }>(
          `select last_value::text, is_called from ${sequence}`,
        );
        const row = rows[0];
        if (!row) continue;
        await client.query('select setval($1::regclass, $2::bigint, $3)', [
          sequence,
          row.last_value,
          row.is_called,
        ]);
      }

      // Every table holds what the source holds, counted on both sides before anything is kept.
      const mismatched: string[] = [];
      for (const table of moved) {
        const name = qualified(...(table.table.split('.') as [string, string]));
        const { rows } = await client.query<{ n: string }>(`select count(*)::text as n from ${name}`);
        const [counted] = (await source.query<{ n: string }>(`select count(*)::text as n from ${name}`)).rows;
        const here = Number(rows[0]?.n);
        if (here !== table.rows || Number(counted?.n) !== table.rows) {
          mismatched.push(`${table.table} (embedded ${counted?.n}, copied ${table.rows}, target ${here})`);
        }
      }
      if (mismatched.length > 0) throw new MoveError(`Row counts differ: ${mismatched.join('; ')}`);
      await client.query('commit');
      const rows = moved.reduce((sum, table) => sum + table.rows, 0);
      const now = performance.now();
      return { tables: moved, rows, sequences: sequences.length, ms: now - started, copyMs: now - copying };
    } catch (error) {
      await client.query('rollback').catch(() => {});
      const why = error instanceof MoveError ? error.message : `the copy failed: ${(error as Error).message}`;
      throw new MoveError(
        `${why}\nNothing was copied; the target is migrated but holds no data. Drop it, create it empty again and run db:move again.`,
      );
    }
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * One table, in batches: the source hands each batch over as one JSON array (every type in its text
 * form, as PostgreSQL prints it), the target reads it back with json_populate_recordset, which parses
 * each value with its type's own input function — so values arrive exactly, whatever their type.
 */
async function copyTable(source: Database, target: pg.Client, table: TableShape): Promise<number> {
  const name = qualified(table.schema, table.name);
  const columns = table.columns.map(quoteIdent).join(', ');
  const insert = `insert into ${name} (${columns}) ${table.identityAlways ? 'overriding system value ' : ''}
    select ${columns} from json_populate_recordset(null::${name}, $1::json)`;
  let copied = 0;
  await source.transaction(async (tx) => {
    await tx.query(
      `declare move_rows no scroll cursor for select to_json(t)::text as row from only ${name} t`,
    );
    for (;;) {
      const { rows } = await tx.query<{ row: string }>(`fetch ${BATCH} from move_rows`);
      if (rows.length === 0) break;
      await target.query(insert, [`[${rows.map((row) => row.row).join(',')}]`]);
      copied += rows.length;
      if (rows.length < BATCH) break;
    }
    await tx.query('close move_rows');
  });
  return copied;
}

/** A node-postgres client as the drivers' `query`. */
function asQueryable(client: pg.Client): Pick<Queryable, 'query'> {
  return {
    async query<Row>(sql: string, params: unknown[] = []) {
      const result = await client.query(sql, params);
      return {
        rows: result.rows as Row[],
        rowCount: result.rowCount ?? 0,
        fields: result.fields.map((field) => ({ name: field.name, dataTypeID: field.dataTypeID })),
      };
    },
  };
}

/** The URL without its password, for messages. */
/** Each stored object's version (its blob's name) with its type and caching, for `--files-to-s3`. */
export async function storedObjectVersions(
  source: Pick<Queryable, 'query'>,
): Promise<{ version: string; type: string | null; cache: string | null }[]> {
  const { rows } = await source.query<{ version: string; type: string | null; cache: string | null }>(
    `select version, metadata ->> 'mimetype' as type, metadata ->> 'cacheControl' as cache
       from storage.objects where version is not null`,
  );
  return rows;
}

export function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(an unreadable URL)';
  }
}
