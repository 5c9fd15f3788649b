-- The team's posts (issue 15 "Posts", decision 103): who reads them, and where their HTML comes from.

-- body_html is the server's rendering of the Markdown (server/functions/admin-posts.ts), handed over in
-- the transaction-local setting highgrade.post_html, which no API request can set. Any other write
-- cannot store HTML: a new post gets none, and changing the Markdown without the server drops the old
-- rendering (readers then show the Markdown as plain text).
create or replace function private.guard_post_html() returns trigger
language plpgsql set search_path = ''
as $$
declare
  rendered text := nullif(current_setting('highgrade.post_html', true), '');
begin
  if rendered is not null then
    new.body_html := rendered;
  elsif tg_op = 'INSERT' then
    new.body_html := null;
  elsif new.content is distinct from old.content then
    new.body_html := null;
  else
    new.body_html := old.body_html;
  end if;
  return new;
end
$$;
revoke all on function private.guard_post_html() from public;

create or replace trigger guard_post_html before insert or update on public.admin_posts
  for each row execute function private.guard_post_html();

-- Anyone reads published posts whose publish time has come; admins read every post (drafts and
-- scheduled ones too).
drop policy if exists "admin_posts: anyone reads published, admins all" on public.admin_posts;
create policy "admin_posts: anyone reads published, admins all" on public.admin_posts
  for select to anon, authenticated
  using (
    (status = 'published' and (publish_at is null or publish_at <= now()))
    or (select public.has_role('admin'))
  );
