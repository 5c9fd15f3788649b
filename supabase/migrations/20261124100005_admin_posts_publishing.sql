-- The team's posts get what publishing needs (issue 15 "Posts", decision 103): the body rendered to
-- sanitised HTML by the server (`body_html`; stored only when the server wrote it, see
-- supabase/definitions/admin_posts.sql) and an optional publish time — a published post with a future
-- publish_at waits until then.

alter table public.admin_posts add column if not exists body_html text;
alter table public.admin_posts add column if not exists publish_at timestamptz;

do $$
begin
  if not exists (select 1 from pg_constraint where conname = 'admin_posts_publish_at_range') then
    alter table public.admin_posts add constraint admin_posts_publish_at_range
      check (publish_at is null or (publish_at > timestamptz '2000-01-01' and publish_at < timestamptz '2100-01-01'));
  end if;
  if not exists (select 1 from pg_constraint where conname = 'admin_posts_body_html_length') then
    alter table public.admin_posts add constraint admin_posts_body_html_length
      check (body_html is null or char_length(body_html) <= 200000);
  end if;
end
$$;

-- Newest published first, by the time readers saw them appear.
create index if not exists admin_posts_published_at_idx
  on public.admin_posts ((coalesce(publish_at, created_at)) desc, id desc) where status = 'published';
