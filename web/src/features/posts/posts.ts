import { listSearch, parsePage } from '#web/components/ui/paged-table.tsx';

/**
 * The team's posts as admins manage them (issue 15 "Posts", product §admin): limits the server also
 * enforces, how a post's state reads, and the editor's values.
 */
export const POST_TITLE_MAX = 200;
export const POST_BODY_MAX = 20_000;
export const POST_MEDIA_MAX = 10;
/** Posts on a page of the admins' list. */
export const POSTS_PAGE_SIZE = 25;

export interface AdminPost {
  id: string;
  title: string;
  content: string;
  bodyHtml: string | null;
  featured: boolean;
  status: 'draft' | 'published';
  publishAt: string | null;
  mediaUrls: string[];
  createdAt: string;
  updatedAt: string;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const optional = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? value : null;

export function parseAdminPost(row: Record<string, unknown>): AdminPost {
  return {
    id: text(row.id),
    title: text(row.title),
    content: text(row.content),
    bodyHtml: optional(row.body_html),
    featured: row.featured === true,
    status: row.status === 'draft' ? 'draft' : 'published',
    publishAt: optional(row.publish_at),
    mediaUrls: Array.isArray(row.media_urls) ? row.media_urls.filter((url) => typeof url === 'string') : [],
    createdAt: text(row.created_at),
    updatedAt: text(row.updated_at),
  };
}

export type PostState = 'draft' | 'scheduled' | 'published';

/** Draft; published but waiting for its publish time (scheduled); or published and visible. */
export function postState(post: Pick<AdminPost, 'status' | 'publishAt'>, now = new Date()): PostState {
  if (post.status === 'draft') return 'draft';
  if (post.publishAt && new Date(post.publishAt) > now) return 'scheduled';
  return 'published';
}

export const STATE_LABELS: Record<PostState, string> = {
  draft: 'Draft',
  scheduled: 'Scheduled',
  published: 'Published',
};

export interface PostValues {
  title: string;
  content: string;
  featured: boolean;
  status: 'draft' | 'published';
  /** A `datetime-local` value (the admin's own time zone), or '' for "when published". */
  publishAt: string;
  mediaUrls: string[];
}

export const EMPTY_POST: PostValues = {
  title: '',
  content: '',
  featured: false,
  status: 'published',
  publishAt: '',
  mediaUrls: [],
};

/** The editor's problems before anything is sent (the server checks the same). */
export function postProblems(values: PostValues): { title?: string; content?: string } {
  const problems: { title?: string; content?: string } = {};
  if (values.title.trim() === '') problems.title = 'Title is required';
  else if (values.title.trim().length > POST_TITLE_MAX)
    problems.title = `Title can be at most ${POST_TITLE_MAX} characters`;
  if (values.content.trim() === '') problems.content = 'Content is required';
  else if (values.content.length > POST_BODY_MAX)
    problems.content = `Content can be at most ${POST_BODY_MAX} characters`;
  return problems;
}

/** The content with an uploaded image's Markdown added at the end, on a paragraph of its own. */
export function withImage(content: string, url: string): string {
  const gap = content === '' || content.endsWith('\n') ? '' : '\n\n';
  return `${content}${gap}![](${url})\n`;
}

/** `datetime-local` ⇄ ISO: the input shows the admin's local time; the server stores an instant. */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

export function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

export function valuesOf(post: AdminPost): PostValues {
  return {
    title: post.title,
    content: post.content,
    featured: post.featured,
    status: post.status,
    publishAt: toLocalInput(post.publishAt),
    mediaUrls: post.mediaUrls,
  };
}

export const POST_SORTS = {
  newest: { label: 'Newest first', ascending: false },
  oldest: { label: 'Oldest first', ascending: true },
} as const;
export type PostSort = keyof typeof POST_SORTS;

export interface PostFilters {
  state: PostState | null;
  sort: PostSort;
  page: number;
}

/** The list's filters as written in the URL (?state=scheduled&sort=oldest&page=2); unknown values are ignored. */
export function parsePostFilters(params: URLSearchParams): PostFilters {
  const state = params.get('state');
  const sort = params.get('sort');
  return {
    state: state === 'draft' || state === 'scheduled' || state === 'published' ? state : null,
    sort: sort === 'oldest' ? 'oldest' : 'newest',
    page: parsePage(params.get('page')),
  };
}

export function postFiltersSearch(filters: PostFilters): string {
  const params = new URLSearchParams();
  if (filters.state) params.set('state', filters.state);
  if (filters.sort !== 'newest') params.set('sort', filters.sort);
  return listSearch(params, filters.page);
}
