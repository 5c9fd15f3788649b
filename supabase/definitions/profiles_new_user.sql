-- Every new account gets its profile at once (§4 "Profile creation" rules: the email, the metadata
-- full name, the username derived from the email's local part), so the trial starts at sign-up and
-- the browser's create-if-missing path is only a fallback. A username already taken gets a short
-- suffix. Sign-up must never fail because of the profile: on any error the account is created
-- without one and the browser creates it later (decision 032).
--
-- An anonymous sign-in (decision 148) is not a member: it gets no profile (and so no trial, no public
-- name) until it becomes permanent — its address confirmed, or a provider's verified address linked —
-- when the same function runs again for it (on_auth_user_made_permanent).
create or replace function private.handle_new_user() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  base text;
  candidate text;
  display_name text;
  tries integer := 0;
begin
  if new.is_anonymous then
    return new;
  end if;
  base := left(regexp_replace(lower(split_part(coalesce(new.email, ''), '@', 1)), '[^a-z0-9_]', '_', 'g'), 48);
  if base = '' then
    base := 'user';
  end if;
  candidate := base;
  while exists (select 1 from public.profiles p where lower(p.username) = candidate) loop
    tries := tries + 1;
    if tries > 20 then
      candidate := null;
      exit;
    end if;
    candidate := base || '_' || left(replace(gen_random_uuid()::text, '-', ''), 6);
  end loop;

  display_name := btrim(new.raw_user_meta_data ->> 'full_name');
  if display_name is not null and (
    private.trimmed_length(display_name) not between 2 and 100
    or private.has_html(display_name) or private.has_script_markup(display_name)
  ) then
    display_name := null;
  end if;

  begin
    insert into public.profiles (user_id, email, full_name, username)
    values (new.id, case when private.is_email(new.email) then new.email end, display_name, candidate)
    on conflict (user_id) do nothing;
  exception when unique_violation then
    -- The username was taken between the check and the insert: keep the profile, skip the username.
    insert into public.profiles (user_id, email, full_name)
    values (new.id, case when private.is_email(new.email) then new.email end, display_name)
    on conflict (user_id) do nothing;
  end;
  return new;
exception when others then
  raise warning 'profile for new user % not created: % (%)', new.id, sqlerrm, sqlstate;
  return new;
end
$$;
revoke all on function private.handle_new_user() from public;

create or replace trigger on_auth_user_created after insert on auth.users
  for each row execute function private.handle_new_user();

create or replace trigger on_auth_user_made_permanent after update of is_anonymous on auth.users
  for each row when (old.is_anonymous and not new.is_anonymous)
  execute function private.handle_new_user();
