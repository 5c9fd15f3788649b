import type { Queryable } from '../../db/driver.ts';
import type { PostInput } from './posts.ts';

/**
 * Every SQL statement of the team's posts (decision 103), run as the admin who writes them: row-level
 * security decides and the audit trigger records the actor.
 */

export interface SavedPost {
  id: string;
  title: string;
  content: string;
  body_html: string | null;
  featured: boolean;
  status: string;
  publish_at: string | null;
  media_urls: string[];
  created_at: string;
  updated_at: string;
}

const COLUMNS =
  'id, title, content, body_html, featured, status, publish_at, media_urls, created_at, updated_at';

/** The rendered HTML travels in a transaction-local setting that the post's trigger reads. */

export async function setPostHtml(tx: Queryable, html: string): Promise<void> {
  await tx.query("select set_config('highgrade.post_html', $1, true)", [html]);
}

function values(input: PostInput): unknown[] {
  return [input.title, input.content, input.featured, input.status, input.publishAt, input.mediaUrls];
}

/** Updates the post; undefined when there is none with this id (or RLS hides it). */
export async function updatePost(
  tx: Queryable,
  id: string,
  input: PostInput,
): Promise<SavedPost | undefined> {
  const { rows } = await tx.query<SavedPost>(
    `update public.admin_posts
        set title = $1, content = $2, featured = $3, status = $4, publish_at = $5, media_urls = $6
      where id = $7
  returning ${COLUMNS}`,
    [...values(input), id],
  );
  return rows[0];
}

export async function insertPost(tx: Queryable, input: PostInput): Promise<SavedPost | undefined> {
  const { rows } = await tx.query<SavedPost>(
    `insert into public.admin_posts (title, content, featured, status, publish_at, media_urls)
     values ($1, $2, $3, $4, $5, $6)
  returning ${COLUMNS}`,
    values(input),
  );
  return rows[0];
}
