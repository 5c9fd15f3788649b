import { queryOptions } from '@tanstack/react-query';
import { loadDatabase } from '#web/lib/supabase.ts';

/** A team post as readers see it on its own page. */
export interface PublishedPost {
  id: string;
  title: string;
  /** The server's sanitised rendering of the Markdown (decision 103); null when it was never rendered. */
  bodyHtml: string | null;
  /** The Markdown, shown as plain text when there is no rendering. */
  content: string;
  mediaUrls: string[];
  publishedAt: string;
}

/**
 * One published post whose publish time has come (the admin_posts policy decides: a draft or a scheduled
 * post reads as missing to everyone but admins); null when there is none.
 */
export async function getPublishedPost(id: string): Promise<PublishedPost | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const db = await loadDatabase();
  const now = new Date().toISOString();
  const { data, error } = await db
    .from('admin_posts')
    .select('id, title, body_html, content, media_urls, publish_at, created_at')
    .eq('id', id)
    .eq('status', 'published')
    .or(`publish_at.is.null,publish_at.lte.${now}`)
    .maybeSingle();
  if (error) throw error;
  if (!data) return null;
  return {
    id: data.id as string,
    title: data.title as string,
    bodyHtml: (data.body_html as string | null) ?? null,
    content: data.content as string,
    mediaUrls: (data.media_urls as string[] | null) ?? [],
    publishedAt: (data.publish_at ?? data.created_at) as string,
  };
}

export const publishedPostQueryOptions = (id: string) =>
  queryOptions({ queryKey: ['posts', 'published', { id }], queryFn: () => getPublishedPost(id) });
