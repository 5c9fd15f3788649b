import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative as relativePath } from 'node:path';
import { OperatorError } from '../operator-error.ts';
import { PROJECT_ROOT as root } from '../paths.ts';
import type { Database } from './driver.ts';

/**
 * The database schema in layers: the platform's own (auth, storage, ...) beside the service that owns
 * it, then the product's in supabase/ (Supabase CLI layout, so it also applies to a hosted Supabase
 * project). Each layer has two kinds of file (decision 089):
 *
 * - migrations (`migrations/`): tables, types, indexes, grants on tables: forward-only, each applied
 *   once, in order, in its own transaction; a file changed after it was applied stops the server
 *   instead of drifting silently;
 * - definitions (`definitions/`): functions, triggers, views and policies, one file per object or
 *   small family, written with `create or replace` (or drop-and-create) so that applying a file again
 *   replaces what it defines. They are applied after the layer's migrations, in name order, and again
 *   whenever their checksum changes: the next fix edits the one file, and its diff is the change.
 */
export interface MigrationSource {
  /** Key under which applied files are recorded. */
  layer: string;
  dir: string;
  /** `sequence`: 0001_name.sql, 0002_... without gaps. `timestamp`: 20261121093000_name.sql. */
  naming: 'sequence' | 'timestamp';
  /** The layer's definitions folder (optional: a layer may have none). */
  definitions?: string;
}

export interface MigrationFile {
  kind: 'migration' | 'definition';
  layer: string;
  /** As recorded in `_platform.migrations`: `0001_name.sql`, or `definitions/name.sql`. */
  name: string;
  path: string;
  sql: string;
  checksum: string;
  /**
   * Migrations only: checksums of earlier contents of this file that count as applied — a migration
   * whose function bodies moved to definitions says so in `-- replaces sha256 <hex>` lines (decision 089).
   */
  replaces: string[];
}

export class MigrationError extends OperatorError {}

export const MIGRATION_SOURCES: MigrationSource[] = [
  { layer: 'platform/db', dir: join(root, 'server/db/migrations'), naming: 'sequence' },
  {
    layer: 'platform/auth',
    dir: join(root, 'server/auth/migrations'),
    naming: 'sequence',
    definitions: join(root, 'server/auth/definitions'),
  },
  { layer: 'platform/storage', dir: join(root, 'server/storage/migrations'), naming: 'sequence' },
  {
    layer: 'platform/realtime',
    dir: join(root, 'server/realtime/migrations'),
    naming: 'sequence',
    definitions: join(root, 'server/realtime/definitions'),
  },
  {
    layer: 'app',
    dir: join(root, 'supabase/migrations'),
    naming: 'timestamp',
    definitions: join(root, 'supabase/definitions'),
  },
];

const PATTERNS = {
  sequence: /^(\d{4})_[a-z0-9_]+\.sql$/,
  timestamp: /^(\d{14})_[a-z0-9_]+\.sql$/,
};
const DEFINITION_NAME = /^[a-z0-9_]+\.sql$/;
const DEFINITIONS_PREFIX = 'definitions/';
const REPLACES = /^-- replaces sha256 ([0-9a-f]{64})\s*$/gm;

/** Checks names and numbering of one folder's files; returns them in the order they apply. */
export function orderMigrationNames(
  source: Pick<MigrationSource, 'naming' | 'dir'>,
  names: string[],
): string[] {
  const pattern = PATTERNS[source.naming];
  const sql = names.filter((name) => name.endsWith('.sql')).sort();
  const seen = new Map<string, string>();
  for (const name of sql) {
    const match = pattern.exec(name);
    if (!match?.[1]) {
      const expected = source.naming === 'sequence' ? 'NNNN_snake_case.sql' : 'YYYYMMDDHHMMSS_snake_case.sql';
      throw new MigrationError(`Migration ${join(source.dir, name)} is misnamed: expected ${expected}`);
    }
    const version = match[1];
    const other = seen.get(version);
    if (other) {
      throw new MigrationError(
        `Migrations ${other} and ${name} in ${source.dir} share the number ${version}`,
      );
    }
    seen.set(version, name);
  }
  if (source.naming === 'sequence') {
    sql.forEach((name, index) => {
      const expected = String(index + 1).padStart(4, '0');
      if (!name.startsWith(expected)) {
        throw new MigrationError(
          `Migration ${join(source.dir, name)} is misnumbered: expected ${expected}_… (numbers run 0001, 0002, … without gaps)`,
        );
      }
    });
  }
  return sql;
}

/** Checks the names of a definitions folder's files; returns them in the order they apply (by name). */
export function orderDefinitionNames(dir: string, names: string[]): string[] {
  const sql = names.filter((name) => name.endsWith('.sql')).sort();
  for (const name of sql) {
    if (!DEFINITION_NAME.test(name)) {
      throw new MigrationError(`Definition ${join(dir, name)} is misnamed: expected snake_case.sql`);
    }
  }
  return sql;
}

/** The `-- replaces sha256 <hex>` lines of a migration. */
export function replacedChecksums(sql: string): string[] {
  return [...sql.matchAll(REPLACES)].map((match) => match[1] as string);
}

async function listSql(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/**
 * Every source's files in the order they apply: per layer, its migrations, then its definitions.
 * Folders and files are read concurrently.
 */
export async function readMigrations(
  sources: MigrationSource[] = MIGRATION_SOURCES,
): Promise<MigrationFile[]> {
  const read = async (kind: MigrationFile['kind'], layer: string, dir: string, name: string) => {
    const path = join(dir, name);
    const sql = await readFile(path, 'utf8');
    return {
      kind,
      layer,
      name: kind === 'definition' ? `${DEFINITIONS_PREFIX}${name}` : name,
      path,
      sql,
      checksum: checksum(sql),
      replaces: kind === 'migration' ? replacedChecksums(sql) : [],
    };
  };
  const perSource = await Promise.all(
    sources.map(async (source) => {
      const [migrationNames, definitionNames] = await Promise.all([
        listSql(source.dir),
        source.definitions ? listSql(source.definitions) : [],
      ]);
      const definitionsDir = source.definitions ?? '';
      return Promise.all([
        ...orderMigrationNames(source, migrationNames).map((name) =>
          read('migration', source.layer, source.dir, name),
        ),
        ...orderDefinitionNames(definitionsDir, definitionNames).map((name) =>
          read('definition', source.layer, definitionsDir, name),
        ),
      ]);
    }),
  );
  return perSource.flat();
}

export function checksum(sql: string): string {
  return createHash('sha256').update(sql.replaceAll('\r\n', '\n')).digest('hex');
}

// pg_advisory_xact_lock key shared by every server process migrating the same database.
export const MIGRATION_LOCK_KEY = 7_355_608_421;

const BOOKKEEPING = `
  create schema if not exists _platform;
  create table if not exists _platform.migrations (
    layer text not null,
    name text not null,
    checksum text not null,
    applied_at timestamptz not null default now(),
    primary key (layer, name)
  );
  revoke all on schema _platform from public;
`;

/** What `_platform.migrations` records (layer/name → checksum); undefined before the first migration. */
async function readApplied(db: Database): Promise<Map<string, string> | undefined> {
  let rows: { layer: string; name: string; checksum: string }[];
  try {
    ({ rows } = await db.query<{ layer: string; name: string; checksum: string }>(
      'select layer, name, checksum from _platform.migrations',
    ));
  } catch (error) {
    if ((error as { code?: string }).code === UNDEFINED_TABLE) return undefined;
    throw error;
  }
  return new Map(rows.map((row) => [`${row.layer}/${row.name}`, row.checksum]));
}

const UNDEFINED_TABLE = '42P01';

/**
 * Applies the migrations not applied yet and the definitions that changed, and verifies the other
 * migrations. A restart with nothing to apply costs one query (read concurrently with the files): no
 * lock, no DDL, no transaction. Only when something is pending are the bookkeeping table ensured and
 * the files applied, each in its own transaction under an advisory lock, so servers starting together
 * on one PostgreSQL database take turns and each file is applied once. When anything was applied,
 * `NOTIFY pgrst, 'reload schema'` tells the processes already serving the database.
 */
export async function migrate(
  db: Database,
  options: { sources?: MigrationSource[]; log?: (message: string) => void } = {},
): Promise<string[]> {
  const [files, recorded] = await Promise.all([readMigrations(options.sources), readApplied(db)]);

  const relative = (file: MigrationFile) => relativePath(root, file.path);
  const verify = (file: MigrationFile, checksum: string) => {
    if (checksum !== file.checksum && !file.replaces.includes(checksum)) {
      throw new MigrationError(
        `Migration ${relative(file)} was changed after it was applied. Applied migrations are never edited: ` +
          'restore the file and put the change in a new migration.',
      );
    }
  };

  const pending: MigrationFile[] = [];
  for (const file of files) {
    const checksum = recorded?.get(`${file.layer}/${file.name}`);
    if (file.kind === 'definition') {
      if (checksum !== file.checksum) pending.push(file);
    } else if (checksum === undefined) pending.push(file);
    else verify(file, checksum);
  }
  if (pending.length === 0) return [];

  if (!recorded) {
    await db.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      await tx.exec(BOOKKEEPING);
    });
  }

  const newlyApplied: string[] = [];
  for (const file of pending) {
    await db.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      // Another process may have applied it while we waited for the lock.
      const again = await tx.query<{ checksum: string }>(
        'select checksum from _platform.migrations where layer = $1 and name = $2',
        [file.layer, file.name],
      );
      const applied = again.rows[0]?.checksum;
      if (file.kind === 'migration' && applied !== undefined) return verify(file, applied);
      if (file.kind === 'definition' && applied === file.checksum) return;
      try {
        await tx.exec(file.sql);
      } catch (error) {
        const what = file.kind === 'migration' ? 'Migration' : 'Definition';
        throw new MigrationError(`${what} ${relative(file)} failed: ${(error as Error).message}`);
      }
      await tx.query(
        `insert into _platform.migrations (layer, name, checksum) values ($1, $2, $3)
         on conflict (layer, name) do update set checksum = excluded.checksum, applied_at = now()`,
        [file.layer, file.name, file.checksum],
      );
      newlyApplied.push(relative(file));
      options.log?.(`applied ${file.kind} ${relative(file)}`);
    });
  }
  // Other processes serving this database cache its schema: tell them, as PostgREST is told
  // (decision 172). Sent at commit of its own statement, after every file is in.
  if (newlyApplied.length > 0) await db.query(`select pg_notify('pgrst', 'reload schema')`);
  return newlyApplied;
}
