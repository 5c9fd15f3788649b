-- The public member profile (product §public-profile, issue 21 item 9, decision 146): what one member's
-- privacy settings let the caller see, in one call. Owner's rights (profiles, privacy_settings, votes
-- and auth.users are not readable by other callers); the settings decide every field:
--   profile_visibility  public: anyone; private: the member only; friends: the member only, until
--                       connections exist (there are none yet). Others get {"status": "private"}.
--   show_email          the email address is included only when it is on.
--   show_activity       recent Pass or Gas votes and comments (and their counts) only when it is on.
-- A suspended or deleted account, or a username nobody has, is {"status": "not_found"}. Admins see what
-- everyone sees here; they have the admin dashboard for the rest. A missing settings row means the
-- defaults (public, email hidden, activity hidden: privacy by default, decision 193; members from before
-- that were given a row holding what applied to them).
create or replace function public.member_profile(p_username text) returns jsonb
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_profile public.profiles;
  v_visibility text;
  v_show_email boolean;
  v_show_activity boolean;
  v_self boolean;
  v_result jsonb;
begin
  if p_username is null or char_length(p_username) > 64
    or p_username !~ '^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$' then
    raise exception using errcode = '22023',
      message = 'A username uses only letters, digits, _, . and -, starts with a letter, digit or _, and is at most 64 characters.';
  end if;

  select p.* into v_profile
  from public.profiles p
  join auth.users u on u.id = p.user_id
  where lower(p.username) = lower(p_username)
    and u.deleted_at is null
    and (u.banned_until is null or u.banned_until <= now());
  if not found then
    return jsonb_build_object('status', 'not_found');
  end if;

  select coalesce(s.profile_visibility, 'public'), coalesce(s.show_email, false), coalesce(s.show_activity, false)
  into v_visibility, v_show_email, v_show_activity
  from (select 1) one
  left join public.privacy_settings s on s.user_id = v_profile.user_id;

  -- coalesce: a visitor has no uid, and a null here must never open a private profile.
  v_self := coalesce(v_profile.user_id = (select auth.uid()), false);
  if v_visibility <> 'public' and not v_self then
    return jsonb_build_object('status', 'private', 'username', v_profile.username);
  end if;

  v_result := jsonb_build_object(
    'status', 'visible',
    'username', v_profile.username,
    'display_name', v_profile.full_name,
    'avatar_url', v_profile.avatar_url,
    'bio', v_profile.bio,
    'member_since', v_profile.created_at,
    'email', case when v_show_email then v_profile.email end,
    'show_activity', v_show_activity,
    'is_self', v_self,
    -- The member's own setting, for the notice on their own page; nobody else learns it.
    'visibility', case when v_self then v_visibility end
  );
  if not v_show_activity then
    return v_result;
  end if;

  -- Votes that count or will count once the account is old enough; held and rejected ones are under
  -- or after review and are not shown as the member's opinion.
  return v_result || jsonb_build_object(
    'vote_count', (select count(*) from public.product_votes v
      where v.user_id = v_profile.user_id and v.status in ('counted', 'pending')),
    'comment_count', (select count(*) from public.product_comments c
      where c.user_id = v_profile.user_id and c.hidden_at is null),
    'votes', coalesce((
      select jsonb_agg(jsonb_build_object('product_id', r.product_id, 'product_name', r.name,
          'vote_type', r.vote_type, 'created_at', r.created_at) order by r.created_at desc, r.id)
      from (select v.id, v.product_id, p.name, v.vote_type, v.created_at
            from public.product_votes v join public.products p on p.id = v.product_id
            where v.user_id = v_profile.user_id and v.status in ('counted', 'pending')
            order by v.created_at desc, v.id limit 10) r
    ), '[]'::jsonb),
    'comments', coalesce((
      select jsonb_agg(jsonb_build_object('id', r.id, 'product_id', r.product_id, 'product_name', r.name,
          'content', r.content, 'created_at', r.created_at, 'edited_at', r.edited_at)
          order by r.created_at desc, r.id)
      from (select c.id, c.product_id, p.name, c.content, c.created_at, c.edited_at
            from public.product_comments c join public.products p on p.id = c.product_id
            where c.user_id = v_profile.user_id and c.hidden_at is null
            order by c.created_at desc, c.id limit 10) r
    ), '[]'::jsonb)
  );
end
$$;
revoke all on function public.member_profile(text) from public;
grant execute on function public.member_profile(text) to anon, authenticated, service_role;
comment on function public.member_profile(text) is
  'Public member profile by username (any case): what the member''s privacy settings let the caller see.';

-- Comment authors on product pages: the username and display name of the members among p_user_ids
-- whose profile is public and who show their activity (so the name links to their public profile).
-- Everyone else stays "A member": naming them would tie their comments together against their settings.
create or replace function public.member_names(p_user_ids uuid[])
returns table (user_id uuid, username text, display_name text)
language plpgsql stable security definer set search_path = ''
as $$
begin
  if p_user_ids is null or cardinality(p_user_ids) > 100 then
    raise exception using errcode = '22023', message = 'Ask for 1 to 100 members at a time.';
  end if;
  return query
    select p.user_id, p.username, p.full_name
    from public.profiles p
    join auth.users u on u.id = p.user_id
    left join public.privacy_settings s on s.user_id = p.user_id
    where p.user_id = any (p_user_ids)
      and p.username is not null
      and u.deleted_at is null
      and (u.banned_until is null or u.banned_until <= now())
      and coalesce(s.profile_visibility, 'public') = 'public'
      and coalesce(s.show_activity, false);
end
$$;
revoke all on function public.member_names(uuid[]) from public;
grant execute on function public.member_names(uuid[]) to anon, authenticated, service_role;
comment on function public.member_names(uuid[]) is
  'Names of comment authors who have a public profile and show their activity.';
