import { Marked } from 'marked';
import sanitizeHtml from 'sanitize-html';
import { REFUSALS } from '#web/lib/refusals.ts';
import type { Database } from '../../db/driver.ts';
import type { FunctionCaller } from '../../functions/http.ts';
import { ApiError } from '../../http/errors.ts';
import { insertPost, type SavedPost, setPostHtml, updatePost } from './db.ts';

/**
 * The team's posts (issue 15 "Posts", product §admin, decision 103): the Markdown body is rendered to
 * HTML here, on the server, and sanitised before it is stored; the database keeps that HTML only when
 * this code wrote it in the same transaction (private.guard_post_html), so no client can store markup
 * of its own. Readers show `body_html`, or the Markdown as plain text where it is missing.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const POST_TITLE_MAX = 200;
export const POST_BODY_MAX = 20_000;
export const POST_MEDIA_MAX = 10;
/** A post's request: 20,000 characters of up to 4 bytes, JSON-escaped, and its other fields. */
export const POST_REQUEST_LIMIT = 128 * 1024;

/** GitHub-flavoured Markdown without raw HTML: an HTML block in the source is shown as text. */
const markdown = new Marked({ gfm: true, breaks: false, async: false });
markdown.use({
  renderer: {
    html: ({ text }) => escapeHtml(text),
  },
});

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const ALLOWED = {
  allowedTags: [
    'p',
    'br',
    'hr',
    'h2',
    'h3',
    'h4',
    'strong',
    'em',
    'del',
    'blockquote',
    'code',
    'pre',
    'ul',
    'ol',
    'li',
    'a',
    'img',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
  ],
  allowedAttributes: { a: ['href', 'title'], img: ['src', 'alt', 'title'], th: ['align'], td: ['align'] },
  allowedSchemes: ['https', 'http', 'mailto'],
  allowedSchemesByTag: { img: ['https', 'http'] },
  allowProtocolRelative: false,
  // Headings start at h2: the page's own title is the h1.
  transformTags: {
    h1: 'h2',
    h5: 'h4',
    h6: 'h4',
    a: (tagName: string, attribs: Record<string, string>) => ({
      tagName,
      attribs: { ...attribs, rel: 'noopener nofollow ugc', target: '_blank' },
    }),
  },
} satisfies sanitizeHtml.IOptions;

/** Markdown → sanitised HTML (links open safely in a new tab; scripts, styles and handlers never pass). */
export function renderPostMarkdown(source: string): string {
  const html = markdown.parse(source) as string;
  return sanitizeHtml(html, {
    ...ALLOWED,
    allowedAttributes: { ...ALLOWED.allowedAttributes, a: [...ALLOWED.allowedAttributes.a, 'rel', 'target'] },
  }).trim();
}

export interface PostInput {
  id: string | null;
  title: string;
  content: string;
  featured: boolean;
  status: 'draft' | 'published';
  publishAt: string | null;
  mediaUrls: string[];
}

const invalid = (message: string) => new ApiError(400, 'invalid_post', message);

/** Reads a save request, refusing wrong types and sizes with a message naming the field. */
export function parsePostInput(body: unknown): PostInput {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw invalid('The request body must be a JSON object');
  }
  const b = body as Record<string, unknown>;
  const id = b.id ?? null;
  if (id !== null && (typeof id !== 'string' || !UUID.test(id)))
    throw invalid('id must be a post id (a UUID)');
  if (typeof b.title !== 'string' || b.title.trim().length === 0) throw invalid('Title is required');
  if (b.title.trim().length > POST_TITLE_MAX)
    throw invalid(`Title can be at most ${POST_TITLE_MAX} characters`);
  if (typeof b.content !== 'string' || b.content.trim().length === 0) throw invalid('Content is required');
  if (b.content.length > POST_BODY_MAX) throw invalid(`Content can be at most ${POST_BODY_MAX} characters`);
  const featured = b.featured ?? false;
  if (typeof featured !== 'boolean') throw invalid('featured must be true or false');
  const status = b.status ?? 'published';
  if (status !== 'draft' && status !== 'published') throw invalid('status must be "draft" or "published"');
  const publishAt = b.publish_at ?? null;
  if (publishAt !== null && (typeof publishAt !== 'string' || Number.isNaN(Date.parse(publishAt)))) {
    throw invalid('publish_at must be a date and time (ISO 8601) or null');
  }
  const media = b.media_urls ?? [];
  if (
    !Array.isArray(media) ||
    media.length > POST_MEDIA_MAX ||
    !media.every((url) => typeof url === 'string')
  ) {
    throw invalid(`media_urls must be a list of at most ${POST_MEDIA_MAX} addresses`);
  }
  return {
    id: id === null ? null : id.toLowerCase(),
    title: b.title.trim(),
    content: b.content,
    featured,
    status,
    publishAt: publishAt === null ? null : new Date(publishAt).toISOString(),
    mediaUrls: media as string[],
  };
}

/**
 * Creates or updates a post as the caller: row-level security decides (admins only) and the audit
 * trigger records them as the actor. The rendered HTML travels in a transaction-local setting that
 * the post's trigger reads.
 */
/** The team's posts: rendered on the server, saved as the admin who writes them. */
export interface PostsDeps {
  db: Database;
}

export async function savePost(db: Database, caller: FunctionCaller, input: PostInput): Promise<SavedPost> {
  const html = renderPostMarkdown(input.content);
  try {
    const saved = await db.withScope(caller.scope, async (tx) => {
      await setPostHtml(tx, html);
      return input.id ? updatePost(tx, input.id, input) : insertPost(tx, input);
    });
    if (!saved) throw new ApiError(404, 'post_not_found', 'There is no post with this id');
    return saved;
  } catch (error) {
    throw postError(error, input.id ? 'Failed to update post' : 'Failed to create post');
  }
}

/** The database's refusal as the spec's messages: "Unauthorized", or the failure with its reason. */
function postError(error: unknown, failed: string): unknown {
  if (error instanceof ApiError) return error;
  const code = (error as { code?: unknown }).code;
  if (code === '42501') return new ApiError(403, 'unauthorized', 'Unauthorized');
  if (code === '23514' || code === '22P02' || code === '22007' || code === '22008') {
    const constraint = (error as { constraint?: unknown }).constraint;
    // The one mapping of rules to sentences (decision 180, issue 34): the same words here as in every form.
    const refusal = typeof constraint === 'string' ? REFUSALS[constraint] : undefined;
    // The code names the rule: the editor shows it at its field.
    return refusal
      ? new ApiError(400, constraint as string, `${failed}: ${refusal.message}`)
      : new ApiError(400, 'invalid_post', failed);
  }
  return error;
}
