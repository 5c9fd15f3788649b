/**
 * The whole-database identifier scan of the erasure tests (issue 33, decision 185): every table of
 * every schema, found in the catalog when the scan runs (a table added later is scanned without being
 * named here), each row read whole as text, and every file under a directory read as bytes.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Database } from '#server/db/driver.ts';
import { quoteQualified } from '#server/db/sql.ts';

/** Schemas that hold no data of ours: the catalogs. */
const SYSTEM_SCHEMAS = `n.nspname not in ('pg_catalog', 'information_schema')
  and n.nspname not like 'pg\\_toast%' and n.nspname not like 'pg\\_temp\\_%'`;

/** Every ordinary and partitioned table outside the catalogs, as `schema.table`. */
export async function everyTable(db: Database): Promise<{ schema: string; table: string }[]> {
  const { rows } = await db.query<{ schema: string; table: string }>(
    `select n.nspname as schema, c.relname as table
     from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
     where c.relkind in ('r', 'p') and ${SYSTEM_SCHEMAS}
     order by 1, 2`,
  );
  return rows;
}

export interface Finding {
  table: string;
  identifier: string;
  row: string;
}

/**
 * Rows that contain any of the identifiers (case-insensitive), anywhere: the row is cast to text as a
 * whole, so every column of every type (text, json, arrays, uuids, addresses) is read.
 */
export async function scanDatabase(db: Database, identifiers: string[]): Promise<Finding[]> {
  const needles = [...new Set(identifiers.map((value) => value.toLowerCase()))];
  const findings: Finding[] = [];
  for (const { schema, table } of await everyTable(db)) {
    const { rows } = await db.query<{ identifier: string; row: string }>(
      `select x.needle as identifier, left(t::text, 500) as row
       from ${quoteQualified(schema, table)} t
       cross join lateral unnest($1::text[]) as x(needle)
       where strpos(lower(t::text), x.needle) > 0
       limit 20`,
      [needles],
    );
    for (const row of rows) findings.push({ table: `${schema}.${table}`, ...row });
  }
  return findings;
}

/** Files under `dir` (recursively) whose bytes contain any of the identifiers, as UTF-8 (any case). */
export async function scanFiles(
  dir: string,
  identifiers: string[],
  skip: (path: string) => boolean = () => false,
): Promise<{ file: string; identifier: string }[]> {
  const needles = [...new Set(identifiers.map((value) => value.toLowerCase()))];
  const found: { file: string; identifier: string }[] = [];
  const walk = async (path: string): Promise<void> => {
    if (skip(relative(dir, path))) return;
    const entries = await readdir(path, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const full = join(path, entry.name);
      if (entry.isDirectory()) {
        await walk(full);
        continue;
      }
      if (!entry.isFile() || skip(relative(dir, full))) continue;
      const text = (await readFile(full)).toString('latin1').toLowerCase();
      const name = relative(dir, full).toLowerCase();
      for (const needle of needles) {
        const bytes = Buffer.from(needle, 'utf8').toString('latin1');
        if (text.includes(bytes) || name.includes(needle))
          found.push({ file: relative(dir, full), identifier: needle });
      }
    }
  };
  await walk(dir);
  return found;
}

/** Objects of a storage backend (key and bytes) whose key or content holds any of the identifiers. */
export function scanObjects(
  objects: { key: string; body: Buffer }[],
  identifiers: string[],
): { key: string; identifier: string }[] {
  const needles = [...new Set(identifiers.map((value) => value.toLowerCase()))];
  return objects.flatMap(({ key, body }) => {
    const text = body.toString('latin1').toLowerCase();
    return needles
      .filter(
        (needle) =>
          text.includes(Buffer.from(needle, 'utf8').toString('latin1')) || key.toLowerCase().includes(needle),
      )
      .map((identifier) => ({ key, identifier }));
  });
}
