// @databases: both — drafts and scheduled posts are hidden by RLS.
/**
 * Issue 15 "Posts" through supabase-js: admins write Markdown that the server renders to sanitised
 * HTML and stores with the post; drafts and scheduled posts stay hidden until their time; nobody can
 * store HTML of their own or write posts without the role; bad input gets a clear message.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient } from '#tests/support/clients.ts';
import { RELAXED_LIMITS } from '#tests/support/server-process.ts';
import { startTestServer, type TestServer } from '#tests/support/test-server.ts';
import { type SignedInUser, signedInUser } from '#tests/support/users.ts';

let server: TestServer;
let admin: SignedInUser;
let member: SignedInUser;
let anon: SupabaseClient;

beforeAll(async () => {
  server = await startTestServer({ ...RELAXED_LIMITS });
  admin = await signedInUser(server, { email: 'poster@posts.example', admin: true });
  member = await signedInUser(server, { email: 'reader@posts.example' });
  anon = anonClient(server);
});
afterAll(() => server?.close());

/** Calls a function; its JSON answer and status (errors included). */
async function call(client: SupabaseClient, name: string, body: unknown) {
  const { data, error } = await client.functions.invoke(name, { body: body as Record<string, unknown> });
  if (!error) return { status: 200, data };
  const response = (error as { context?: Response }).context;
  return { status: response?.status ?? 0, data: response ? await response.json() : null };
}

describe('saving a post', () => {
  it('renders the Markdown to sanitised HTML on the server and stores both', async () => {
    const content = [
      '# Harvest update',
      '',
      'Our **first** post, with [a link](https://example.com/report) and an image:',
      '',
      '![Greenhouse](https://example.com/greenhouse.png)',
      '',
      '<img src="x" onmouseenter="steal()"> <iframe src="https://evil.example"></iframe>',
      '',
      '- one',
      '- two',
    ].join('\n');
    const saved = await call(admin.client, 'admin-post-save', {
      title: 'Harvest update',
      content,
      featured: true,
      status: 'published',
    });
    expect(saved.status).toBe(200);
    const html = saved.data.body_html as string;
    expect(html).toContain('<h2>Harvest update</h2>');
    expect(html).toContain('<strong>first</strong>');
    expect(html).toContain(
      '<a href="https://example.com/report" rel="noopener nofollow ugc" target="_blank">a link</a>',
    );
    expect(html).toContain('<img src="https://example.com/greenhouse.png" alt="Greenhouse" />');
    expect(html).toContain('<li>one</li>');
    // Raw HTML in the Markdown is shown as text, never as markup.
    expect(html.match(/<[a-z][^>]*>/g)?.filter((tag) => /^<(img|iframe)/.test(tag))).toEqual([
      '<img src="https://example.com/greenhouse.png" alt="Greenhouse" />',
    ]);
    expect(html).toContain('&lt;iframe');

    const read = await anon
      .from('admin_posts')
      .select('title, body_html, featured, author_id')
      .eq('id', saved.data.id)
      .single();
    expect(read.data).toEqual({
      title: 'Harvest update',
      body_html: html,
      featured: true,
      author_id: admin.id,
    });

    const audit = await admin.client
      .from('admin_audit_log')
      .select('actor_id, action')
      .eq('target_id', saved.data.id);
    expect(audit.data).toEqual([{ actor_id: admin.id, action: 'INSERT' }]);
  });

  it('updates a post, and the preview shows exactly what would be stored', async () => {
    const created = await call(admin.client, 'admin-post-save', {
      title: 'Draft',
      content: 'v1',
      status: 'draft',
    });
    const preview = await call(admin.client, 'admin-post-preview', { content: 'Hello _there_' });
    expect(preview).toEqual({ status: 200, data: { html: '<p>Hello <em>there</em></p>' } });
    const updated = await call(admin.client, 'admin-post-save', {
      id: created.data.id,
      title: 'Draft, revised',
      content: 'Hello _there_',
      status: 'draft',
    });
    expect(updated.data).toMatchObject({
      id: created.data.id,
      title: 'Draft, revised',
      body_html: preview.data.html,
    });
  });

  it('keeps drafts and scheduled posts from readers until their time', async () => {
    const draft = await call(admin.client, 'admin-post-save', {
      title: 'Secret draft',
      content: 'x',
      status: 'draft',
    });
    const later = await call(admin.client, 'admin-post-save', {
      title: 'Tomorrow',
      content: 'x',
      status: 'published',
      publish_at: new Date(Date.now() + 86_400_000).toISOString(),
    });
    const due = await call(admin.client, 'admin-post-save', {
      title: 'An hour ago',
      content: 'x',
      status: 'published',
      publish_at: new Date(Date.now() - 3_600_000).toISOString(),
    });
    for (const reader of [anon, member.client]) {
      const { data } = await reader
        .from('admin_posts')
        .select('id')
        .in('id', [draft.data.id, later.data.id, due.data.id]);
      expect(data).toEqual([{ id: due.data.id }]);
      const feed = await reader.rpc('news_feed', { p_category: 'Team' });
      const titles = (feed.data as { title: string }[]).map((row) => row.title);
      expect(titles).toContain('An hour ago');
      expect(titles).not.toContain('Tomorrow');
      expect(titles).not.toContain('Secret draft');
    }
    const { data: all } = await admin.client
      .from('admin_posts')
      .select('id')
      .in('id', [draft.data.id, later.data.id]);
    expect(all).toHaveLength(2);
  });
});

describe('what nobody else can do', () => {
  it('refuses members and visitors, and stores no HTML written through the data API', async () => {
    const asMember = await call(member.client, 'admin-post-save', { title: 'Mine', content: 'x' });
    expect(asMember).toEqual({ status: 403, data: { error: 'unauthorized', message: 'Unauthorized' } });
    const anonymous = await call(anon, 'admin-post-save', { title: 'Mine', content: 'x' });
    expect(anonymous.status).toBe(401);
    const preview = await call(member.client, 'admin-post-preview', { content: 'x' });
    expect(preview.status).toBe(403);

    // Even an admin writing through the data API cannot store HTML: only the server's rendering counts.
    const direct = await admin.client
      .from('admin_posts')
      .insert({
        title: 'Direct',
        content: 'plain',
        body_html: '<img src=x onerror=alert(1)>',
        author_id: admin.id,
      })
      .select('id, body_html')
      .single();
    expect(direct.error).toBeNull();
    expect(direct.data?.body_html).toBeNull();
    const rendered = await call(admin.client, 'admin-post-save', {
      id: direct.data?.id,
      title: 'Direct',
      content: 'plain',
    });
    expect(rendered.data.body_html).toBe('<p>plain</p>');
    const overwrite = await admin.client
      .from('admin_posts')
      .update({ body_html: '<script>x</script>' })
      .eq('id', direct.data?.id)
      .select('body_html')
      .single();
    expect(overwrite.data?.body_html).toBe('<p>plain</p>');
    const newText = await admin.client
      .from('admin_posts')
      .update({ content: 'changed without the server' })
      .eq('id', direct.data?.id)
      .select('body_html')
      .single();
    expect(newText.data?.body_html).toBeNull();
  });

  it('answers bad input with a clear message and saves nothing', async () => {
    const before = await admin.client.from('admin_posts').select('id', { count: 'exact', head: true });
    const cases: [unknown, string][] = [
      [[1, 2], 'The request body must be a JSON object'],
      [{ title: '', content: 'x' }, 'Title is required'],
      [{ title: 'x'.repeat(201), content: 'x' }, 'Title can be at most 200 characters'],
      [{ title: 'T', content: 'x'.repeat(20_001) }, 'Content can be at most 20000 characters'],
      [{ title: 'T', content: 'x', featured: 'yes' }, 'featured must be true or false'],
      [{ title: 'T', content: 'x', status: 'live' }, 'status must be "draft" or "published"'],
      [
        { title: 'T', content: 'x', publish_at: 'soon' },
        'publish_at must be a date and time (ISO 8601) or null',
      ],
      [
        { title: 'T', content: 'x', media_urls: 'a.png' },
        'media_urls must be a list of at most 10 addresses',
      ],
      [{ id: "1' or '1'='1", title: 'T', content: 'x' }, 'id must be a post id (a UUID)'],
    ];
    for (const [body, message] of cases) {
      const answer = await call(admin.client, 'admin-post-save', body);
      expect(answer, JSON.stringify(body).slice(0, 60)).toEqual({
        status: 400,
        data: { error: expect.any(String), message },
      });
    }
    const script = await call(admin.client, 'admin-post-save', {
      title: 'T',
      content: 'Hi <script>alert(1)</script>',
    });
    expect(script.status).toBe(400);
    expect(script.data.message).toMatch(/^Failed to create post/);
    const markupTitle = await call(admin.client, 'admin-post-save', {
      title: '<script>x</script>',
      content: 'x',
    });
    expect(markupTitle.status).toBe(400);
    const badMedia = await call(admin.client, 'admin-post-save', {
      title: 'T',
      content: 'x',
      media_urls: ['javascript:alert(1)'],
    });
    expect(badMedia.status).toBe(400);
    const missing = await call(admin.client, 'admin-post-save', {
      id: '00000000-0000-4000-8000-000000000000',
      title: 'T',
      content: 'x',
    });
    expect(missing.status).toBe(404);
    const after = await admin.client.from('admin_posts').select('id', { count: 'exact', head: true });
    expect(after.count).toBe(before.count);
  });
});
