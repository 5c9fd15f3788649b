-- HighGrade product schema, part 5: the community tables of spec §3 — admin_posts, product_votes,
-- product_comments, saved_articles and notifications.

-- ---------------------------------------------------------------------------------------------------
-- admin_posts: admins publish (title, content, featured flag, media urls, status published) and
-- delete; anyone reads published posts (spec §6 Admin, §7 admin_posts).
-- ---------------------------------------------------------------------------------------------------

create table if not exists public.admin_posts (
  id uuid primary key default gen_random_uuid(),
  title text not null
    constraint admin_posts_title_length check (private.trimmed_length(title) between 1 and 200)
    constraint admin_posts_title_markup check (not private.has_script_markup(title)),
  content text not null
    constraint admin_posts_content_length check (private.trimmed_length(content) between 1 and 20000)
    constraint admin_posts_content_markup check (not private.has_script_markup(content)),
  author_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  featured boolean not null default false,
  media_urls text[] not null default '{}'
    constraint admin_posts_media_urls_format check (private.are_http_urls(media_urls)),
  status text not null default 'published'
    constraint admin_posts_status_check check (status in ('draft', 'published')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create index if not exists admin_posts_published_idx on public.admin_posts (created_at desc) where status = 'published';
create index if not exists admin_posts_author_id_idx on public.admin_posts (author_id);

alter table public.admin_posts enable row level security;

drop policy if exists "admin_posts: anyone reads published, admins all" on public.admin_posts;
create policy "admin_posts: anyone reads published, admins all" on public.admin_posts
  for select to anon, authenticated
  using (status = 'published' or (select public.has_role('admin')));

drop policy if exists "admin_posts: admins publish as themselves" on public.admin_posts;
create policy "admin_posts: admins publish as themselves" on public.admin_posts
  for insert to authenticated
  with check ((select public.has_role('admin')) and author_id = (select auth.uid()));

drop policy if exists "admin_posts: admins edit" on public.admin_posts;
create policy "admin_posts: admins edit" on public.admin_posts
  for update to authenticated
  using ((select public.has_role('admin')))
  with check ((select public.has_role('admin')));

drop policy if exists "admin_posts: admins delete" on public.admin_posts;
create policy "admin_posts: admins delete" on public.admin_posts
  for delete to authenticated
  using ((select public.has_role('admin')));

create or replace trigger guard_timestamps before insert or update on public.admin_posts
  for each row execute function private.guard_timestamps('created_at', 'updated_at');
create or replace trigger guard_immutable before update on public.admin_posts
  for each row execute function private.guard_immutable('author_id');
create or replace trigger touch_updated_at before update on public.admin_posts
  for each row execute function private.touch_updated_at();

-- ---------------------------------------------------------------------------------------------------
-- product_votes: one vote per member per product, changeable and removable (design.md Pass or Gas).
-- Members read their own (profile Votes tab); tallies will come from an aggregate, not from rows.
-- ---------------------------------------------------------------------------------------------------

create table if not exists public.product_votes (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  product_id text not null constraint product_votes_product_id_format check (private.is_product_id(product_id)),
  vote_type text not null constraint product_votes_vote_type_check check (vote_type in ('gas', 'pass')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint product_votes_user_id_product_id_key unique (user_id, product_id)
);

create index if not exists product_votes_user_id_created_at_idx on public.product_votes (user_id, created_at desc);
create index if not exists product_votes_product_id_idx on public.product_votes (product_id);

alter table public.product_votes enable row level security;

drop policy if exists "product_votes: read own or as admin" on public.product_votes;
create policy "product_votes: read own or as admin" on public.product_votes
  for select to authenticated
  using (user_id = (select auth.uid()) or (select public.has_role('admin')));

drop policy if exists "product_votes: vote as yourself" on public.product_votes;
create policy "product_votes: vote as yourself" on public.product_votes
  for insert to authenticated
  with check (user_id = (select auth.uid()));

drop policy if exists "product_votes: change own" on public.product_votes;
create policy "product_votes: change own" on public.product_votes
  for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));

drop policy if exists "product_votes: remove own" on public.product_votes;
create policy "product_votes: remove own" on public.product_votes
  for delete to authenticated
  using (user_id = (select auth.uid()));

create or replace trigger guard_timestamps before insert or update on public.product_votes
  for each row execute function private.guard_timestamps('created_at', 'updated_at');
create or replace trigger guard_immutable before update on public.product_votes
  for each row execute function private.guard_immutable('user_id', 'product_id');
create or replace trigger touch_updated_at before update on public.product_votes
  for each row execute function private.touch_updated_at();

-- ---------------------------------------------------------------------------------------------------
-- product_comments: public conversation on a product page; members write, edit and delete their own,
-- admins moderate (delete).
-- ---------------------------------------------------------------------------------------------------

create table if not exists public.product_comments (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  product_id text not null constraint product_comments_product_id_format check (private.is_product_id(product_id)),
  content text not null
    constraint product_comments_content_length check (private.trimmed_length(content) between 1 and 2000)
    constraint product_comments_content_markup check (not private.has_script_markup(content)),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create index if not exists product_comments_user_id_created_at_idx on public.product_comments (user_id, created_at desc);
create index if not exists product_comments_product_id_created_at_idx on public.product_comments (product_id, created_at desc);

alter table public.product_comments enable row level security;

drop policy if exists "product_comments: anyone reads" on public.product_comments;
create policy "product_comments: anyone reads" on public.product_comments
  for select to anon, authenticated
  using (true);

drop policy if exists "product_comments: comment as yourself" on public.product_comments;
create policy "product_comments: comment as yourself" on public.product_comments
  for insert to authenticated
  with check (user_id = (select auth.uid()));

drop policy if exists "product_comments: edit own" on public.product_comments;
create policy "product_comments: edit own" on public.product_comments
  for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));

drop policy if exists "product_comments: delete own or as admin" on public.product_comments;
create policy "product_comments: delete own or as admin" on public.product_comments
  for delete to authenticated
  using (user_id = (select auth.uid()) or (select public.has_role('admin')));

create or replace trigger guard_timestamps before insert or update on public.product_comments
  for each row execute function private.guard_timestamps('created_at', 'updated_at');
create or replace trigger guard_immutable before update on public.product_comments
  for each row execute function private.guard_immutable('user_id', 'product_id');
create or replace trigger touch_updated_at before update on public.product_comments
  for each row execute function private.touch_updated_at();

-- ---------------------------------------------------------------------------------------------------
-- saved_articles: a member's own reading list; nobody else reads it, admins included.
-- ---------------------------------------------------------------------------------------------------

create table if not exists public.saved_articles (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  article_title text not null
    constraint saved_articles_article_title_length check (private.trimmed_length(article_title) between 1 and 500)
    constraint saved_articles_article_title_markup check (not private.has_script_markup(article_title)),
  article_summary text
    constraint saved_articles_article_summary_length check (article_summary is null or char_length(article_summary) <= 5000)
    constraint saved_articles_article_summary_markup check (article_summary is null or not private.has_script_markup(article_summary)),
  article_image text
    constraint saved_articles_article_image_format check (article_image is null or private.is_http_url(article_image)),
  article_source text
    constraint saved_articles_article_source_length check (article_source is null or char_length(article_source) <= 200)
    constraint saved_articles_article_source_markup check (article_source is null or not private.has_script_markup(article_source)),
  article_category text
    constraint saved_articles_article_category_length check (article_category is null or char_length(article_category) <= 100)
    constraint saved_articles_article_category_markup check (article_category is null or not private.has_script_markup(article_category)),
  article_url text not null constraint saved_articles_article_url_format check (private.is_http_url(article_url)),
  saved_at timestamptz not null default now(),
  constraint saved_articles_user_id_article_url_key unique (user_id, article_url)
);

create index if not exists saved_articles_user_id_saved_at_idx on public.saved_articles (user_id, saved_at desc);

alter table public.saved_articles enable row level security;

drop policy if exists "saved_articles: read own" on public.saved_articles;
create policy "saved_articles: read own" on public.saved_articles
  for select to authenticated
  using (user_id = (select auth.uid()));

drop policy if exists "saved_articles: save as yourself" on public.saved_articles;
create policy "saved_articles: save as yourself" on public.saved_articles
  for insert to authenticated
  with check (user_id = (select auth.uid()));

drop policy if exists "saved_articles: edit own" on public.saved_articles;
create policy "saved_articles: edit own" on public.saved_articles
  for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));

drop policy if exists "saved_articles: remove own" on public.saved_articles;
create policy "saved_articles: remove own" on public.saved_articles
  for delete to authenticated
  using (user_id = (select auth.uid()));

create or replace trigger guard_timestamps before insert or update on public.saved_articles
  for each row execute function private.guard_timestamps('saved_at');
create or replace trigger guard_immutable before update on public.saved_articles
  for each row execute function private.guard_immutable('user_id');

-- ---------------------------------------------------------------------------------------------------
-- notifications: written by the server or an admin; the recipient reads them and marks them read
-- (spec §2 Notifications, §7). Published for realtime by the realtime service's migration.
-- ---------------------------------------------------------------------------------------------------

create table if not exists public.notifications (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  title text not null
    constraint notifications_title_length check (private.trimmed_length(title) between 1 and 200)
    constraint notifications_title_markup check (not private.has_script_markup(title)),
  message text not null
    constraint notifications_message_length check (private.trimmed_length(message) between 1 and 2000)
    constraint notifications_message_markup check (not private.has_script_markup(message)),
  is_read boolean not null default false,
  created_at timestamptz not null default now()
);

create index if not exists notifications_user_id_created_at_idx on public.notifications (user_id, created_at desc);
create index if not exists notifications_user_id_unread_idx on public.notifications (user_id) where not is_read;

alter table public.notifications enable row level security;

drop policy if exists "notifications: read own or as admin" on public.notifications;
create policy "notifications: read own or as admin" on public.notifications
  for select to authenticated
  using (user_id = (select auth.uid()) or (select public.has_role('admin')));

drop policy if exists "notifications: admins send" on public.notifications;
create policy "notifications: admins send" on public.notifications
  for insert to authenticated
  with check ((select public.has_role('admin')));

drop policy if exists "notifications: mark own read, admins edit" on public.notifications;
create policy "notifications: mark own read, admins edit" on public.notifications
  for update to authenticated
  using (user_id = (select auth.uid()) or (select public.has_role('admin')))
  with check (user_id = (select auth.uid()) or (select public.has_role('admin')));

drop policy if exists "notifications: admins delete" on public.notifications;
create policy "notifications: admins delete" on public.notifications
  for delete to authenticated
  using ((select public.has_role('admin')));

-- The recipient may flip is_read and nothing else.
create or replace function private.guard_notification() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if private.is_privileged() or public.has_role('admin') then
    return new;
  end if;
  if (to_jsonb(new) - 'is_read') is distinct from (to_jsonb(old) - 'is_read') then
    raise exception using errcode = 'insufficient_privilege',
      message = 'only notifications.is_read can be changed';
  end if;
  return new;
end
$$;
revoke all on function private.guard_notification() from public;

create or replace trigger guard_notification before update on public.notifications
  for each row execute function private.guard_notification();
create or replace trigger guard_timestamps before insert or update on public.notifications
  for each row execute function private.guard_timestamps('created_at');
