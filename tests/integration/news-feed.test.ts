// @databases: both — rpc news_feed, its ranking and search are SQL.
/**
 * rpc('news_feed') through supabase-js (product §news): newest first with keyset pages, search ranked
 * and highlighted, category and team-post filters, hidden and grouped articles, bad arguments.
 */
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient } from '#tests/support/clients.ts';
import { signedInUser } from '#tests/support/users.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

let t: TestServer;
let anon: SupabaseClient;

interface Entry {
  kind: string;
  id: string;
  title: string;
  published_at: string;
  rank: number;
  title_highlight: string;
  summary_highlight: string | null;
  category: string;
}

async function feed(args: Record<string, unknown> = {}): Promise<Entry[]> {
  const { data, error } = await anon.rpc('news_feed', args);
  if (error) throw new Error(error.message);
  return data as Entry[];
}

beforeAll(async () => {
  t = await startTestServer({ NEWS_REFRESH_MINUTES: '0' });
  anon = anonClient(t);
  const now = Date.now();
  for (let index = 0; index < 45; index += 1) {
    const id = randomUUID();
    const word = index % 3 === 0 ? 'licensing' : 'harvest';
    await t.db.query(
      `insert into public.news_articles (id, story_id, title, url, url_key, summary, source_name, category, published_at, fingerprint)
       values ($1, $1, $2, $3, $4, $5, 'Gazette', $6, $7, $2)`,
      [
        id,
        `Story ${index} about ${word}`,
        `https://gazette.example/${index}`,
        `gazette.example/${index}`,
        `A summary that mentions ${word} ${index % 2 === 0 ? `and ${word} again` : ''}`,
        index % 2 === 0 ? 'Policy' : 'Business',
        // Two articles share each timestamp: the id breaks the tie.
        new Date(now - Math.floor(index / 2) * 60_000).toISOString(),
      ],
    );
  }
  const admin = await signedInUser(t, { admin: true });
  await t.db.query(
    `insert into public.admin_posts (title, content, author_id, status, created_at) values
       ('Team update on licensing', 'Our team explains the new licensing rules.', $1, 'published', now() - interval '90 seconds'),
       ('Draft about licensing', 'Not yet.', $1, 'draft', now())`,
    [admin.id],
  );
});
afterAll(() => t?.close());

async function pageThrough(args: Record<string, unknown>, limit: number): Promise<Entry[]> {
  const all: Entry[] = [];
  let cursor: Record<string, unknown> = {};
  for (let guard = 0; guard < 50; guard += 1) {
    const page = await feed({ ...cursor, ...args, p_limit: limit });
    all.push(...page);
    if (page.length < limit) break;
    const last = page[page.length - 1] as Entry;
    // As the web app sends it: every argument named, null where it has none.
    cursor = {
      p_query: null,
      p_category: null,
      p_before_at: last.published_at,
      p_before_id: last.id,
      p_before_rank: args.p_sort === 'relevance' ? last.rank : null,
    };
  }
  return all;
}

describe('the feed', () => {
  it('pages through everything newest first, each entry once, the team’s published post among them', async () => {
    const all = await pageThrough({}, 7);
    expect(all).toHaveLength(46);
    expect(new Set(all.map((entry) => entry.id)).size).toBe(46);
    const times = all.map((entry) => Date.parse(entry.published_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const posts = all.filter((entry) => entry.kind === 'post');
    expect(posts.map((post) => [post.title, post.category])).toEqual([['Team update on licensing', 'Team']]);
  });

  it('filters by category, and "Team" gives the team’s posts only', async () => {
    const policy = await pageThrough({ p_category: 'Policy' }, 20);
    expect(policy).toHaveLength(23);
    expect(policy.every((entry) => entry.category === 'Policy')).toBe(true);
    expect((await feed({ p_category: 'Team' })).map((entry) => entry.kind)).toEqual(['post']);
  });

  it('searches with highlights; by relevance, pages hold each match once in rank order', async () => {
    const newest = await pageThrough({ p_query: 'licensing' }, 5);
    expect(newest).toHaveLength(16);
    expect(newest[0]?.title_highlight).toContain('\uE000licensing\uE001');
    const relevant = await pageThrough({ p_query: 'licensing', p_sort: 'relevance' }, 4);
    expect(relevant).toHaveLength(16);
    expect(new Set(relevant.map((entry) => entry.id)).size).toBe(16);
    const ranks = relevant.map((entry) => entry.rank);
    expect([...ranks].sort((a, b) => b - a)).toEqual(ranks);
    expect(await feed({ p_query: 'the and of' })).toEqual([]);
    expect(await feed({ p_query: '"unbalanced & | !' })).toEqual([]);
  });

  it('answers bad arguments with a clear 400', async () => {
    for (const [args, message] of [
      [{ p_limit: 0 }, 'p_limit must be between 1 and 50'],
      [{ p_limit: 51 }, 'p_limit must be between 1 and 50'],
      [{ p_sort: 'random' }, 'p_sort must be newest or relevance'],
      [{ p_query: 'x'.repeat(201) }, 'search text is too long (at most 200 characters)'],
      [{ p_before_at: new Date().toISOString() }, 'p_before_at and p_before_id go together'],
    ] as const) {
      const { error, status } = await anon.rpc('news_feed', args);
      expect(status).toBe(400);
      expect(error?.message).toBe(message);
    }
    const wrongType = await anon.rpc('news_feed', { p_limit: 'many' });
    expect(wrongType.status).toBe(400);
  });
});
