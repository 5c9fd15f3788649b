-- Comments on products (product §pass-or-gas): hidden comments leave the public page, edits are
-- marked, likes order "top first", reports go to the moderation queue.

-- Everyone reads every comment: a hidden one carries a placeholder instead of its text (the text waits
-- in private.votes_hidden_comments), so the select policy stays `true` and the search indexes serve.

create or replace function private.votes_comment_before_write() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_archived timestamptz;
begin
  if private.votes_internal() then
    return new;
  end if;
  if tg_op = 'INSERT' then
    if new.user_id is distinct from auth.uid() then
      raise exception using errcode = 'insufficient_privilege', message = 'You can only comment as yourself.';
    end if;
    select p.archived_at into v_archived from public.products p where p.id = new.product_id;
    if not found and private.is_product_id(new.product_id) then
      raise exception using errcode = 'foreign_key_violation', message = 'There is no product with this id.';
    end if;
    if v_archived is not null then
      raise exception using errcode = 'insufficient_privilege',
        message = 'This product is archived: comments have closed.';
    end if;
    new.edited_at := null;
    new.hidden_at := null;
    new.likes := 0;
    return new;
  end if;
  if (new.edited_at, new.hidden_at, new.likes) is distinct from (old.edited_at, old.hidden_at, old.likes) then
    raise exception using errcode = 'insufficient_privilege',
      message = 'product_comments.edited_at, hidden_at and likes are set by the server',
      hint = 'Send only content to edit a comment.';
  end if;
  if old.hidden_at is not null then
    raise exception using errcode = 'insufficient_privilege',
      message = 'A moderator has hidden this comment: it can no longer be edited.';
  end if;
  if new.content is distinct from old.content then
    new.edited_at := now();
  end if;
  return new;
end
$$;
revoke all on function private.votes_comment_before_write() from public;
create or replace trigger votes_comment_before_write before insert or update on public.product_comments
  for each row execute function private.votes_comment_before_write();

-- Likes: a member likes a visible comment once; the count lives on the comment.
drop policy if exists "product_comment_likes: read own" on public.product_comment_likes;
create policy "product_comment_likes: read own" on public.product_comment_likes
  for select to authenticated using (user_id = (select auth.uid()));
drop policy if exists "product_comment_likes: like as yourself" on public.product_comment_likes;
create policy "product_comment_likes: like as yourself" on public.product_comment_likes
  for insert to authenticated with check (user_id = (select auth.uid()));
drop policy if exists "product_comment_likes: unlike own" on public.product_comment_likes;
create policy "product_comment_likes: unlike own" on public.product_comment_likes
  for delete to authenticated using (user_id = (select auth.uid()));

create or replace trigger guard_timestamps before insert or update on public.product_comment_likes
  for each row execute function private.guard_timestamps('created_at');

create or replace function private.votes_comment_likes() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    if not private.caller_is_privileged() and exists (
      select 1 from public.product_comments c where c.id = new.comment_id and c.hidden_at is not null
    ) then
      raise exception using errcode = 'insufficient_privilege', message = 'This comment has been hidden.';
    end if;
    update public.product_comments set likes = likes + 1 where id = new.comment_id;
  else
    update public.product_comments set likes = greatest(likes - 1, 0) where id = old.comment_id;
  end if;
  return null;
end
$$;
revoke all on function private.votes_comment_likes() from public;
create or replace trigger votes_comment_likes after insert or delete on public.product_comment_likes
  for each row execute function private.votes_comment_likes();

-- Reports: a member reports someone else's comment once; the report opens (or adds to) the comment's
-- moderation item.
drop policy if exists "product_comment_reports: read own or as admin" on public.product_comment_reports;
create policy "product_comment_reports: read own or as admin" on public.product_comment_reports
  for select to authenticated using (reporter_id = (select auth.uid()) or (select public.has_role('admin')));
drop policy if exists "product_comment_reports: report as yourself" on public.product_comment_reports;
create policy "product_comment_reports: report as yourself" on public.product_comment_reports
  for insert to authenticated with check (reporter_id = (select auth.uid()));

create or replace trigger guard_timestamps before insert or update on public.product_comment_reports
  for each row execute function private.guard_timestamps('created_at');

create or replace function private.votes_comment_reported() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_author uuid;
  v_product text;
begin
  select c.user_id, c.product_id into v_author, v_product from public.product_comments c where c.id = new.comment_id;
  if not private.caller_is_privileged() and v_author = new.reporter_id then
    raise exception using errcode = 'insufficient_privilege', message = 'You cannot report your own comment.';
  end if;
  insert into public.moderation_items as m (kind, product_id, comment_id, reports)
  values ('comment_report', v_product, new.comment_id, 1)
  on conflict (comment_id) where status = 'open'
  do update set reports = m.reports + 1, updated_at = now();
  return null;
end
$$;
revoke all on function private.votes_comment_reported() from public;
create or replace trigger votes_comment_reported after insert on public.product_comment_reports
  for each row execute function private.votes_comment_reported();
