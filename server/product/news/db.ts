import type { Queryable } from '../../db/driver.ts';
import { one } from '../../db/sql.ts';

/**
 * Every SQL statement of the news area (product §news, decisions 112–113), as the server's own role:
 * private.news_* are not callable by API roles. Values are always bind parameters.
 */

export interface NewsSourceRow {
  id: string;
  name: string;
  feed_url: string;
  enabled: boolean;
  etag: string | null;
  last_modified: string | null;
}

const NEWS_SOURCE_COLUMNS = 'id, name, feed_url, enabled, etag, last_modified';

/** One source by id, or every source. */
export async function listNewsSources(tx: Queryable, sourceId: string | null): Promise<NewsSourceRow[]> {
  const { rows } = await tx.query<NewsSourceRow>(
    `select ${NEWS_SOURCE_COLUMNS} from public.news_sources where $1::uuid is null or id = $1::uuid order by name`,
    [sourceId],
  );
  return rows;
}

/**
 * Claims the enabled sources no process attempted in the last `seconds`: marks them attempted now and
 * returns them. Rows another process is claiming at the same moment are skipped, not waited for.
 */
export async function claimDueSources(tx: Queryable, seconds: number): Promise<NewsSourceRow[]> {
  const { rows } = await tx.query<NewsSourceRow>(
    `update public.news_sources as s set last_attempt_at = now()
     where s.id in (
       select id from public.news_sources
       where enabled and (last_attempt_at is null or last_attempt_at < now() - make_interval(secs => $1))
       for update skip locked
     )
     returning ${NEWS_SOURCE_COLUMNS.split(', ')
       .map((column) => `s.${column}`)
       .join(', ')}`,
    [seconds],
  );
  return rows;
}

/** Adds one fetch's items (de-duplicated and grouped by the database); the number of new articles. */
export async function ingestNewsItems(
  tx: Queryable,
  sourceId: string,
  items: unknown[],
  etag: string | null,
  lastModified: string | null,
): Promise<number> {
  const row = await one<{ added: number }>(
    tx,
    `select private.news_ingest($1::uuid, $2::jsonb, $3, $4) as added`,
    [sourceId, JSON.stringify(items), etag, lastModified],
  );
  return Number(row?.added ?? 0);
}

/** Records a fetch that added nothing: 'not_modified' or 'error' with its reason. */
export async function recordNewsFetch(
  tx: Queryable,
  sourceId: string,
  status: 'not_modified' | 'error',
  error: string | null,
): Promise<void> {
  await tx.query(`select private.news_record_fetch($1::uuid, $2, $3)`, [sourceId, status, error]);
}
