/**
 * News ingestion against the real server and database (product §news, decisions 112–113): a local
 * publisher serves feeds of every format and the ways feeds go wrong; the server fetches them through
 * POST /functions/v1/news-refresh and the admin's test, and the articles are read back through the data
 * API with supabase-js.
 */
import { createServer } from 'node:http';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, anonClient } from '#tests/support/clients.ts';
import { type SignedInUser, signedInUser } from '#tests/support/users.ts';
import {
  atom,
  type FeedItem,
  type FeedServer,
  jsonFeed,
  rdf,
  rss,
  startFeedServer,
} from '../support/feed-server.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

let t: TestServer;
let feeds: FeedServer;
let admin: SignedInUser;
let member: SignedInUser;
let anon: SupabaseClient;
let service: SupabaseClient;

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3600_000);

function items(prefix: string, count: number, start = 0): FeedItem[] {
  return Array.from({ length: count }, (_, index) => ({
    guid: `${prefix}-${start + index}`,
    title: `${prefix} headline number ${start + index} about licensing`,
    link: `https://${prefix}.example/articles/${start + index}`,
    summary: `<p>Summary of <b>${prefix}</b> item ${start + index}.</p>`,
    date: hoursAgo(index + 1),
  }));
}

async function addSource(name: string, path: string, category = 'Policy'): Promise<string> {
  const { data, error } = await admin.client
    .from('news_sources')
    .insert({ name, feed_url: `${feeds.url}${path}`, category })
    .select('id')
    .single();
  if (error) throw new Error(error.message);
  return data.id as string;
}

async function refresh(token: string, body: unknown = {}): Promise<Response> {
  return fetch(`${t.url}/functions/v1/news-refresh`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

interface Outcome {
  source_id: string;
  status: string;
  new_items: number;
  error: string | null;
}

async function refreshOne(sourceId: string): Promise<Outcome> {
  const response = await refresh(admin.token, { source_id: sourceId });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { sources: Outcome[] };
  expect(body.sources).toHaveLength(1);
  return body.sources[0] as Outcome;
}

async function testFeed(feedUrl: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${t.url}/functions/v1/news-feed-test`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ feed_url: feedUrl }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

async function articlesOf(sourceId: string) {
  const { data, error } = await anon
    .from('news_articles')
    .select(
      'guid, title, url, summary, image_url, author, published_at, story_id, id, is_sample, source_name, category',
    )
    .eq('source_id', sourceId)
    .order('guid');
  if (error) throw new Error(error.message);
  return data;
}

async function sourceRow(id: string) {
  const { data, error } = await anon.from('news_sources').select('*').eq('id', id).single();
  if (error) throw new Error(error.message);
  return data as Record<string, unknown>;
}

beforeAll(async () => {
  feeds = await startFeedServer();
  t = await startTestServer({
    NEWS_ALLOW_PRIVATE_HOSTS: 'true',
    NEWS_REFRESH_MINUTES: '0',
    NEWS_FETCH_TIMEOUT_MS: '1500',
    NEWS_MAX_FEED_KB: '1024',
  });
  admin = await signedInUser(t, { admin: true });
  member = await signedInUser(t);
  anon = anonClient(t);
  service = adminClient(t);
  // The publications of data/news-sources.csv are on the internet, which tests do not reach.
  await t.db.query(`update public.news_sources set enabled = false`);
});
afterAll(async () => {
  await t?.close();
  await feeds?.close();
});

describe('a fresh install', () => {
  it('is configured with the publications of data/news-sources.csv, each with its source noted', async () => {
    const { data } = await anon.from('news_sources').select('name, feed_url, category, origin').order('name');
    const seeded = (data ?? []).filter((row) => String(row.origin).startsWith('data/news-sources.csv'));
    expect(seeded.map((row) => row.name)).toEqual([
      'Cannabis Business Times',
      'Ganjapreneur',
      'Green Market Report',
      'Hemp Industry Daily',
      'High Times',
      'Leafly News',
      'MJBizDaily',
      'Marijuana Moment',
      'NORML',
      'New Cannabis Ventures',
    ]);
    expect(seeded.find((row) => row.name === 'MJBizDaily')?.origin).toContain('HTTP 403 seen');
  });

  it('shows sample articles, labelled, until the first real article arrives; none with load = false', async () => {
    await t.db.query(`select private.news_samples(true)`);
    await t.db.query(`select private.news_samples(true)`); // idempotent
    const { data } = await anon.rpc('news_feed');
    const rows = data as { title: string; url: string; is_sample: boolean }[];
    expect(rows).toHaveLength(6);
    for (const row of rows) {
      expect(row.is_sample).toBe(true);
      expect(row.title).toMatch(/^Sample headline: /);
      expect(row.url).toMatch(/^https:\/\/example\.com\//);
    }
    await t.db.query(`select private.news_samples(false)`);
    expect((await anon.rpc('news_feed')).data).toEqual([]);
    await t.db.query(`select private.news_samples(true)`);
    expect((await anon.rpc('news_feed')).data).toHaveLength(6);
  });
});

describe('who may refresh', () => {
  it('refuses no token (401), a bad token (401), the anon key (401) and a member (403)', async () => {
    const none = await fetch(`${t.url}/functions/v1/news-refresh`, { method: 'POST' });
    expect(none.status).toBe(401);
    expect((await refresh('not-a-token')).status).toBe(401);
    expect((await refresh(t.anonKey)).status).toBe(401);
    const asMember = await refresh(member.token);
    expect(asMember.status).toBe(403);
    expect(await asMember.json()).toMatchObject({ error: 'admin_required' });
    const test = await fetch(`${t.url}/functions/v1/news-feed-test`, {
      method: 'POST',
      headers: { authorization: `Bearer ${member.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ feed_url: `${feeds.url}/x` }),
    });
    expect(test.status).toBe(403);
  });

  it('takes the service key and an admin; checks the body', async () => {
    expect((await refresh(t.serviceRoleKey)).status).toBe(200);
    const { data, error } = await admin.client.functions.invoke('news-refresh', { body: {} });
    expect(error).toBeNull();
    expect(data).toHaveProperty('sources');
    expect((await refresh(admin.token, { source_id: 'nope' })).status).toBe(400);
    expect((await refresh(admin.token, { source_id: 12 })).status).toBe(400);
    expect((await refresh(admin.token, [1])).status).toBe(400);
    expect((await refresh(admin.token, { source_id: '00000000-0000-4000-8000-000000000000' })).status).toBe(
      404,
    );
    const get = await fetch(`${t.url}/functions/v1/news-refresh`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(get.status).toBe(405);
  });
});

describe('formats', () => {
  const cases = [
    ['RSS 2.0', '/rss', (list: FeedItem[]) => rss('RSS publisher', list), 'application/rss+xml'],
    ['Atom 1.0', '/atom', (list: FeedItem[]) => atom('Atom publisher', list), 'application/atom+xml'],
    ['RSS 1.0 / RDF', '/rdf', (list: FeedItem[]) => rdf('RDF publisher', list), 'application/rdf+xml'],
    ['JSON Feed', '/json', (list: FeedItem[]) => jsonFeed('JSON publisher', list), 'application/feed+json'],
  ] as const;

  for (const [name, path, render, type] of cases) {
    it(`reads ${name}: every item, plain-text summaries, times; the same feed again adds nothing`, async () => {
      const prefix = path.slice(1);
      const list = items(prefix, 3);
      (list[0] as FeedItem).author = 'Dana Writer';
      feeds.feed(path, render(list), { type });
      const id = await addSource(`${name} publisher`, path);
      const first = await refreshOne(id);
      expect(first).toMatchObject({ status: 'ok', new_items: 3, error: null });
      const rows = await articlesOf(id);
      expect(rows.map((row) => row.title)).toEqual(list.map((item) => item.title));
      expect(rows[0]).toMatchObject({
        url: `https://${prefix}.example/articles/0`,
        summary: `Summary of ${prefix} item 0.`,
        source_name: `${name} publisher`,
        category: 'Policy',
        is_sample: false,
      });
      if (name !== 'RSS 1.0 / RDF') expect(rows[0]?.author).toBe('Dana Writer');
      expect(
        Math.abs(
          Date.parse(rows[0]?.published_at as string) - ((list[0] as FeedItem).date as Date).getTime(),
        ),
      ).toBeLessThan(1000);
      expect(await refreshOne(id)).toMatchObject({ status: 'ok', new_items: 0 });
      expect(await articlesOf(id)).toHaveLength(3);
      const source = await sourceRow(id);
      expect(source).toMatchObject({ last_status: 'ok', item_count: 3, last_new_count: 0, last_error: null });
    });
  }

  it('the first real article removed the samples', async () => {
    const { count } = await anon
      .from('news_articles')
      .select('id', { count: 'exact', head: true })
      .eq('is_sample', true);
    expect(count).toBe(0);
    await t.db.query(`select private.news_samples(true)`);
    const again = await anon
      .from('news_articles')
      .select('id', { count: 'exact', head: true })
      .eq('is_sample', true);
    expect(again.count).toBe(0); // real articles exist: samples are not loaded again
  });
});

describe('HTTP done right', () => {
  it('sends a clear User-Agent, takes gzip, and uses the ETag (304 adds nothing)', async () => {
    feeds.feed('/gzip', rss('Gzip', items('gzip', 2)), { gzip: true, etag: '"v1"' });
    const id = await addSource('Gzip publisher', '/gzip');
    expect(await refreshOne(id)).toMatchObject({ status: 'ok', new_items: 2 });
    expect(feeds.lastHeaders.get('/gzip')?.['user-agent']).toMatch(/^HighGrade-NewsFetcher\/1\.0 \(\+http/);
    expect(feeds.lastHeaders.get('/gzip')?.['accept-encoding']).toContain('gzip');
    expect(await sourceRow(id)).toMatchObject({
      etag: '"v1"',
      last_modified: 'Tue, 24 Nov 2026 00:00:00 GMT',
    });
    expect(await refreshOne(id)).toMatchObject({ status: 'not_modified', new_items: 0 });
    expect(feeds.lastHeaders.get('/gzip')?.['if-none-match']).toBe('"v1"');
    expect(feeds.lastHeaders.get('/gzip')?.['if-modified-since']).toBe('Tue, 24 Nov 2026 00:00:00 GMT');
    expect(await sourceRow(id)).toMatchObject({ last_status: 'not_modified', item_count: 2 });
  });

  it('follows a few redirects, and no more', async () => {
    feeds.feed('/moved-target', rss('Moved', items('moved', 1)));
    feeds.route('/moved', (_req, res) => res.writeHead(301, { location: '/moved-2' }).end());
    feeds.route('/moved-2', (_req, res) =>
      res.writeHead(302, { location: `${feeds.url}/moved-target` }).end(),
    );
    const id = await addSource('Moved publisher', '/moved');
    expect(await refreshOne(id)).toMatchObject({ status: 'ok', new_items: 1 });

    feeds.route('/loop', (_req, res) => res.writeHead(302, { location: '/loop' }).end());
    const loop = await addSource('Loop publisher', '/loop');
    expect(await refreshOne(loop)).toMatchObject({ status: 'error', error: 'more than 5 redirects' });
    expect(feeds.hits.get('/loop')).toBe(6);

    feeds.route('/to-file', (_req, res) => res.writeHead(302, { location: 'file:///etc/passwd' }).end());
    const toFile = await addSource('File redirect', '/to-file');
    expect((await refreshOne(toFile)).error).toMatch(/only http and https URLs are fetched/);
  });

  it('gives up on a slow server at the deadline and records why', async () => {
    feeds.route('/slow', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/rss+xml' });
      res.write('<?xml version="1.0"?><rss version="2.0"><channel>');
      // … and never finishes.
    });
    const id = await addSource('Slow publisher', '/slow');
    const outcome = await refreshOne(id);
    expect(outcome).toMatchObject({ status: 'error', error: 'no complete answer within 1500 ms' });
    expect(await sourceRow(id)).toMatchObject({
      last_status: 'error',
      last_error: 'no complete answer within 1500 ms',
    });
  });

  it('stops reading at the size cap: a 50 MB feed, declared or streamed, and a gzip bomb', async () => {
    feeds.route('/huge-declared', (_req, res) => {
      res.writeHead(200, {
        'content-type': 'application/rss+xml',
        'content-length': String(50 * 1024 * 1024),
      });
      res.write('<rss>');
    });
    feeds.route('/huge-streamed', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/rss+xml' });
      const chunk = Buffer.alloc(1024 * 1024, 'a');
      let sent = 0;
      const push = () => {
        while (sent < 50) {
          sent += 1;
          if (!res.write(chunk)) return res.once('drain', push);
        }
        res.end();
      };
      push();
    });
    const { gzipSync } = await import('node:zlib');
    const bomb = gzipSync(Buffer.alloc(50 * 1024 * 1024, ' '));
    feeds.route('/bomb', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/rss+xml', 'content-encoding': 'gzip' }).end(bomb);
    });
    for (const path of ['/huge-declared', '/huge-streamed', '/bomb']) {
      const id = await addSource(`Huge ${path}`, path);
      expect(await refreshOne(id)).toMatchObject({
        status: 'error',
        error: 'the answer is larger than 1048576 bytes',
      });
    }
  });

  it('records HTTP errors and broken documents without harm', async () => {
    feeds.route('/forbidden', (_req, res) => res.writeHead(403).end('no bots'));
    const forbidden = await addSource('Forbidden publisher', '/forbidden');
    expect(await refreshOne(forbidden)).toMatchObject({ status: 'error', error: 'HTTP 403 Forbidden' });

    feeds.feed('/html', '<html><body><p>Not a feed</p></body></html>', { type: 'text/html' });
    const html = await addSource('HTML page', '/html');
    expect((await refreshOne(html)).error).toMatch(/^the document is not a feed that can be read/);

    feeds.feed('/truncated', rss('Cut', items('cut', 2)).slice(0, 300));
    const truncated = await addSource('Truncated publisher', '/truncated');
    expect((await refreshOne(truncated)).error).toMatch(/^the feed is not well-formed XML \(line \d+: /);
    expect(await articlesOf(truncated)).toEqual([]);

    feeds.route('/latin1', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/rss+xml' });
      res.end(
        Buffer.concat([
          Buffer.from('<?xml version="1.0"?><rss version="2.0"><channel><title>x</title><item><title>Caf'),
          Buffer.from([0xe9, 0xff, 0xfe]),
          Buffer.from('</title><link>https://x.example/1</link></item></channel></rss>'),
        ]),
      );
    });
    const latin = await addSource('Bad bytes publisher', '/latin1');
    expect(await refreshOne(latin)).toMatchObject({
      status: 'error',
      error: 'the feed is not valid UTF-8 and declares no other supported encoding',
    });
    expect(await articlesOf(latin)).toEqual([]);
  });

  it('refuses XML attacks: external entities and entity expansion', async () => {
    feeds.feed(
      '/xxe',
      `<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><rss version="2.0"><channel><title>x</title><item><title>&xxe;</title><link>https://x.example/xxe</link></item></channel></rss>`,
    );
    const laughs = Array.from({ length: 10 }, (_, i) =>
      i === 0 ? '<!ENTITY lol0 "lol">' : `<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`,
    ).join('');
    feeds.feed(
      '/laughs',
      `<?xml version="1.0"?><!DOCTYPE rss [${laughs}]><rss version="2.0"><channel><title>x</title><item><title>&lol9;</title><link>https://x.example/lol</link></item></channel></rss>`,
    );
    feeds.feed(
      '/dtd',
      `<?xml version="1.0"?><!DOCTYPE rss SYSTEM "http://127.0.0.1:1/evil.dtd"><rss version="2.0"><channel><title>x</title></channel></rss>`,
    );
    for (const [path, message] of [
      ['/xxe', 'the feed declares XML entities, which are refused'],
      ['/laughs', 'the feed declares XML entities, which are refused'],
      ['/dtd', 'the feed refers to an external document type, which is refused'],
    ] as const) {
      const id = await addSource(`Hostile ${path}`, path);
      expect(await refreshOne(id)).toMatchObject({ status: 'error', error: message });
      expect(await articlesOf(id)).toEqual([]);
    }
  });
});

describe('what is kept of an item', () => {
  it('keeps text only: scripts, handlers and markup go; links and images must be http(s)', async () => {
    feeds.feed(
      '/dirty',
      rss('Dirty', [
        {
          guid: 'd1',
          title: '<b>Bold</b> claims &amp; <script>alert(1)</script>facts',
          link: 'https://dirty.example/1?utm_source=feed',
          summary:
            '<img src="https://img.example/a.jpg" onerror="alert(1)"><p onclick="x()">Read <a href="javascript:alert(1)">this</a></p><script>steal()</script><style>p{}</style>\uE000marker',
          date: hoursAgo(1),
        },
        { guid: 'd2', title: 'A javascript: link', link: 'javascript:alert(1)', date: hoursAgo(1) },
        { guid: 'd3', title: 'An ftp link', link: 'ftp://dirty.example/file', date: hoursAgo(1) },
        { guid: 'd4', title: '   ', link: 'https://dirty.example/4', date: hoursAgo(1) },
        {
          guid: 'd5',
          title: 'From the future',
          link: 'https://dirty.example/5',
          date: new Date(Date.now() + 86400_000 * 30),
        },
        {
          guid: 'd6',
          title: 'Image by data URL',
          link: 'https://dirty.example/6',
          image: 'data:image/png;base64,AAAA',
        },
      ]),
    );
    const id = await addSource('Dirty publisher', '/dirty');
    expect(await refreshOne(id)).toMatchObject({ status: 'ok', new_items: 3 });
    const rows = await articlesOf(id);
    expect(rows.map((row) => row.guid)).toEqual(['d1', 'd5', 'd6']);
    const [first, future, dataImage] = rows;
    expect(first?.title).toBe('Bold claims & facts');
    expect(first?.summary).toBe('Read this marker');
    expect(first?.image_url).toBe('https://img.example/a.jpg');
    expect(Date.parse(future?.published_at as string)).toBeLessThanOrEqual(Date.now() + 1000);
    expect(dataImage?.image_url).toBeNull();
  });
});

describe('de-duplication and stories', () => {
  it('adds nothing for a URL another source already has (after normalising it)', async () => {
    feeds.feed(
      '/copy',
      rss('Copy', [
        {
          guid: 'c1',
          title: 'A copy of dirty 1',
          link: 'http://www.dirty.example/1/?utm_medium=x#top',
          date: hoursAgo(1),
        },
        { guid: 'c2', title: 'Something else entirely', link: 'https://copy.example/2', date: hoursAgo(1) },
      ]),
    );
    const id = await addSource('Copy publisher', '/copy');
    expect(await refreshOne(id)).toMatchObject({ new_items: 1 });
    expect((await articlesOf(id)).map((row) => row.guid)).toEqual(['c2']);
  });

  it('groups the same story from two sources within the window; the feed says who else reported it', async () => {
    feeds.feed(
      '/first',
      rss('First', [
        {
          guid: 'f1',
          title: 'Ohio regulators approve first adult-use dispensary licenses',
          link: 'https://first.example/ohio',
          date: hoursAgo(3),
        },
        {
          guid: 'f2',
          title: 'Old story about Ohio regulators approving licenses',
          link: 'https://first.example/old',
          date: hoursAgo(24 * 10),
        },
      ]),
      { type: 'application/rss+xml' },
    );
    feeds.feed(
      '/second',
      atom('Second', [
        {
          guid: 's1',
          title: 'Ohio Regulators Approve First Adult-Use Dispensary Licenses!',
          link: 'https://second.example/ohio-licenses',
          date: hoursAgo(2),
        },
        {
          guid: 's2',
          title: 'Hemp farmers expect a record harvest',
          link: 'https://second.example/hemp',
          date: hoursAgo(2),
        },
      ]),
    );
    const first = await addSource('First Gazette', '/first', 'Policy');
    const second = await addSource('Second Journal', '/second', 'Business');
    await refreshOne(first);
    await refreshOne(second);
    const a = await articlesOf(first);
    const b = await articlesOf(second);
    const root = a.find((row) => row.guid === 'f1');
    expect(b.find((row) => row.guid === 's1')?.story_id).toBe(root?.id);
    expect(b.find((row) => row.guid === 's2')?.story_id).toBe(b.find((row) => row.guid === 's2')?.id);
    expect(a.find((row) => row.guid === 'f2')?.story_id).toBe(a.find((row) => row.guid === 'f2')?.id);

    const { data } = await anon.rpc('news_feed', { p_query: 'dispensary licenses' });
    const rows = data as { id: string; also_reported_by: { source_name: string; url: string }[] }[];
    expect(rows.map((row) => row.id)).toEqual([root?.id]);
    expect(rows[0]?.also_reported_by).toEqual([
      { source_name: 'Second Journal', url: 'https://second.example/ohio-licenses' },
    ]);
  });

  it('refreshes every enabled source at once; a disabled one is left alone', async () => {
    const { data: before } = await anon
      .from('news_sources')
      .select('id, last_fetched_at')
      .eq('name', 'Second Journal')
      .single();
    await admin.client.from('news_sources').update({ enabled: false }).eq('name', 'First Gazette');
    const response = await refresh(t.serviceRoleKey);
    const body = (await response.json()) as { sources: (Outcome & { name: string })[] };
    const names = body.sources.map((source) => source.name);
    expect(names).toContain('Second Journal');
    expect(names).not.toContain('First Gazette');
    expect(names).not.toContain('NORML');
    const { data: after } = await anon
      .from('news_sources')
      .select('last_fetched_at')
      .eq('id', before?.id)
      .single();
    expect(Date.parse(after?.last_fetched_at)).toBeGreaterThan(Date.parse(before?.last_fetched_at));
  });
});

describe('the admin test', () => {
  it('previews the parsed items and saves nothing', async () => {
    feeds.feed('/preview', jsonFeed('Preview', items('preview', 3)), { type: 'application/feed+json' });
    const result = await testFeed(`${feeds.url}/preview`);
    expect(result).toMatchObject({ ok: true, format: 'json', title: 'Preview', item_count: 3 });
    expect((result.items as { title: string }[])[0]?.title).toBe('preview headline number 0 about licensing');
    const { count } = await service
      .from('news_articles')
      .select('id', { count: 'exact', head: true })
      .like('url', 'https://preview.example/%');
    expect(count).toBe(0);
  });

  it('says why a feed cannot be read, and refuses what is not an http(s) URL', async () => {
    expect(await testFeed(`${feeds.url}/nothing-here`)).toEqual({ ok: false, error: 'HTTP 404 Not Found' });
    expect(await testFeed('file:///etc/passwd')).toEqual({
      ok: false,
      error: 'only http and https URLs are fetched (got file:)',
    });
    expect(await testFeed('http://user:secret@127.0.0.1/')).toEqual({
      ok: false,
      error: 'URLs with credentials are not fetched',
    });
    expect(await testFeed('not a url')).toEqual({ ok: false, error: 'not a valid URL' });
    const bad = await fetch(`${t.url}/functions/v1/news-feed-test`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ feed_url: 42 }),
    });
    expect(bad.status).toBe(400);
  });

  it('a closed port is a clear error', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    expect(await testFeed(`http://127.0.0.1:${port}/feed`)).toEqual({
      ok: false,
      error: 'the connection failed (ECONNREFUSED)',
    });
  });
});

describe('admin writes, member and visitor limits', () => {
  it('members cannot add sources or hide articles; admins hide, and the feed drops the article', async () => {
    const asMember = await member.client
      .from('news_sources')
      .insert({ name: 'Mine', feed_url: 'https://m.example/f', category: 'Policy' });
    expect(asMember.error?.code).toBe('42501');
    const { data: one } = await anon.from('news_articles').select('id').eq('guid', 's2').single();
    const memberHide = await member.client
      .from('news_articles')
      .update({ hidden: true })
      .eq('id', one?.id)
      .select();
    expect(memberHide.data).toEqual([]);
    const adminHide = await admin.client
      .from('news_articles')
      .update({ hidden: true })
      .eq('id', one?.id)
      .select('hidden');
    expect(adminHide.data).toEqual([{ hidden: true }]);
    const feed = await anon.rpc('news_feed', { p_query: 'hemp harvest' });
    expect(feed.data).toEqual([]);
    const visible = await anon.from('news_articles').select('id').eq('id', one?.id);
    expect(visible.data).toEqual([]);
  });

  it('refuses a source with a non-http URL or markup in its name', async () => {
    const ftp = await admin.client
      .from('news_sources')
      .insert({ name: 'FTP', feed_url: 'ftp://x.example/f', category: 'Policy' });
    expect(ftp.error?.code).toBe('23514');
    const markup = await admin.client
      .from('news_sources')
      .insert({ name: '<b>x</b>', feed_url: 'https://x.example/f', category: 'Policy' });
    expect(markup.error?.code).toBe('23514');
  });
});

describe('the audit log', () => {
  it('records admins’ source changes and hidden articles, not the fetcher’s bookkeeping', async () => {
    const id = await addSource('Audited publisher', '/audited');
    feeds.feed('/audited', rss('Audited', items('audited', 1)));
    await refreshOne(id);
    await admin.client.from('news_sources').update({ category: 'Markets' }).eq('id', id);
    await admin.client.from('news_sources').delete().eq('id', id);
    const { rows } = await t.db.query<{ action: string; actor_id: string | null }>(
      `select action, actor_id from private.audit_log where target_table = 'public.news_sources' and target_id = $1 order by at, id`,
      [id],
    );
    expect(rows).toEqual([
      { action: 'INSERT', actor_id: admin.id },
      { action: 'UPDATE', actor_id: admin.id },
      { action: 'DELETE', actor_id: admin.id },
    ]);
    const hidden = await t.db.query<{ n: number }>(
      `select count(*)::int as n from private.audit_log where target_table = 'public.news_articles' and action = 'UPDATE'`,
    );
    expect(hidden.rows[0]?.n).toBe(1);
  });
});
