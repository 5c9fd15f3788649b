import type { Migration } from './archive.ts';

/** The backup's SQL (decision 215): the checkpoints and the migration list a snapshot records. */

/** A connection of the server's driver, or PGlite opened on a snapshot's own copy. */
interface Runs {
  query<Row>(sql: string): Promise<{ rows: Row[] }>;
}

/** Writes dirty pages to disk, so the files copied are the database as of now. */
export async function checkpoint(db: Runs): Promise<void> {
  await db.query('checkpoint');
}

/** The migrations applied, in order: recorded in the archive's header. */
export async function migrationsApplied(db: Runs): Promise<Migration[]> {
  const { rows } = await db.query<Migration>(
    'select layer, name, checksum from _platform.migrations order by layer, name',
  );
  return rows;
}
