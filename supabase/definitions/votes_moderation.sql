-- The moderation queue of Pass or Gas (product §pass-or-gas): admins read it and act through two
-- procedures; every action is audited (private.audit, the admin area's, where it exists).

drop policy if exists "moderation_items: admins read" on public.moderation_items;
create policy "moderation_items: admins read" on public.moderation_items
  for select to authenticated using ((select public.has_role('admin')));

create or replace function private.votes_audit(p_action text, p_table text, p_id text, p_before jsonb, p_after jsonb)
returns void
language plpgsql security definer set search_path = ''
as $$
begin
  if to_regprocedure('private.audit(text,text,text,jsonb,jsonb)') is not null then
    execute 'select private.audit($1, $2, $3, $4, $5)' using p_action, p_table, p_id, p_before, p_after;
  end if;
end
$$;
revoke all on function private.votes_audit(text, text, text, jsonb, jsonb) from public;

create or replace function private.votes_require_admin() returns void
language plpgsql stable security definer set search_path = ''
as $$
begin
  if not public.has_role('admin') then
    raise exception using errcode = 'insufficient_privilege', message = 'Unauthorized: only admins can moderate.';
  end if;
end
$$;
revoke all on function private.votes_require_admin() from public;

-- Reported comment: hide (comment leaves the page), restore (a hidden comment returns), dismiss
-- (the reports were unfounded; the comment stays).
create or replace function public.moderate_comment(item_id uuid, action text)
returns public.moderation_items
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_item public.moderation_items%rowtype;
  v_before jsonb;
begin
  perform private.votes_require_admin();
  if action is null or action not in ('hide', 'restore', 'dismiss') then
    raise exception using errcode = 'invalid_parameter_value', message = 'action must be hide, restore or dismiss';
  end if;
  select * into v_item from public.moderation_items m where m.id = item_id and m.kind = 'comment_report' for update;
  if not found then
    raise exception using errcode = 'PT404', message = 'There is no reported comment with this id.';
  end if;
  if action = 'restore' and v_item.resolution is distinct from 'hidden' then
    raise exception using errcode = 'invalid_parameter_value', message = 'Only a hidden comment can be restored.';
  end if;
  if action in ('hide', 'dismiss') and v_item.status <> 'open' then
    raise exception using errcode = 'invalid_parameter_value', message = 'This report has already been handled.';
  end if;
  v_before := to_jsonb(v_item);
  perform set_config('highgrade.votes_internal', 'on', true);
  if action = 'hide' then
    insert into private.votes_hidden_comments as h (comment_id, content)
    select c.id, c.content from public.product_comments c where c.id = v_item.comment_id and c.hidden_at is null
    on conflict (comment_id) do update set content = excluded.content, hidden_at = now();
    update public.product_comments c
    set hidden_at = now(), content = 'This comment was hidden by a moderator.'
    where c.id = v_item.comment_id and c.hidden_at is null;
  elsif action = 'restore' then
    update public.product_comments c set hidden_at = null, content = h.content
    from private.votes_hidden_comments h
    where c.id = v_item.comment_id and h.comment_id = c.id;
    delete from private.votes_hidden_comments h where h.comment_id = v_item.comment_id;
  end if;
  update public.moderation_items m set
    status = 'resolved',
    resolution = case action when 'hide' then 'hidden' when 'restore' then 'restored' else 'dismissed' end,
    resolved_at = now(), resolved_by = auth.uid(), updated_at = now()
  where m.id = item_id
  returning * into v_item;
  perform set_config('highgrade.votes_internal', '', true);
  perform private.votes_audit('moderation.comment.' || action, 'public.product_comments',
    v_item.comment_id::text, v_before, to_jsonb(v_item));
  return v_item;
end
$$;
revoke all on function public.moderate_comment(uuid, text) from public, anon;
grant execute on function public.moderate_comment(uuid, text) to authenticated;

-- Held votes: release (they count, or wait as pending while their accounts are young) or reject
-- (they never count; their owners still see them).
create or replace function public.moderate_held_votes(item_id uuid, action text)
returns public.moderation_items
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_item public.moderation_items%rowtype;
  v_before jsonb;
  v_count integer;
begin
  perform private.votes_require_admin();
  if action is null or action not in ('release', 'reject') then
    raise exception using errcode = 'invalid_parameter_value', message = 'action must be release or reject';
  end if;
  select * into v_item from public.moderation_items m where m.id = item_id and m.kind = 'held_votes' for update;
  if not found then
    raise exception using errcode = 'PT404', message = 'There are no held votes with this id.';
  end if;
  if v_item.status <> 'open' then
    raise exception using errcode = 'invalid_parameter_value', message = 'These votes have already been handled.';
  end if;
  v_before := to_jsonb(v_item);
  perform set_config('highgrade.votes_internal', 'on', true);
  update public.product_votes v set status = case
      when action = 'reject' then 'rejected'
      when v.counts_from <= now() then 'counted'
      else 'pending' end
  where v.hold_id = item_id and v.status = 'held';
  get diagnostics v_count = row_count;
  update public.moderation_items m set
    status = 'resolved', votes = v_count,
    resolution = case action when 'release' then 'released' else 'rejected' end,
    resolved_at = now(), resolved_by = auth.uid(), updated_at = now()
  where m.id = item_id
  returning * into v_item;
  perform set_config('highgrade.votes_internal', '', true);
  perform private.votes_audit('moderation.votes.' || action, 'public.product_votes',
    item_id::text, v_before, to_jsonb(v_item));
  return v_item;
end
$$;
revoke all on function public.moderate_held_votes(uuid, text) from public, anon;
grant execute on function public.moderate_held_votes(uuid, text) to authenticated;
