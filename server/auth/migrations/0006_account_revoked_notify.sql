-- Tells every server process, at commit, that an account was deleted or suspended, so realtime closes
-- the channels its tokens opened at once instead of when they expire (issue 13, decision 104). The
-- payload is only the account's id and what happened; NOTIFY is transactional, so a rolled-back
-- deletion or suspension says nothing. Any writer counts: the auth admin API, the GDPR deletion, the
-- admin dashboard's suspension (public.admin_set_suspended) or SQL by an operator.
create or replace function auth.notify_account_revoked() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if tg_op = 'DELETE' then
    perform pg_notify('auth_account_revoked', json_build_object('u', old.id, 'r', 'deleted')::text);
    return old;
  end if;
  if new.deleted_at is not null and old.deleted_at is null then
    perform pg_notify('auth_account_revoked', json_build_object('u', new.id, 'r', 'deleted')::text);
  elsif new.banned_until is not null and new.banned_until > now()
    and (old.banned_until is null or old.banned_until <= now()) then
    perform pg_notify('auth_account_revoked', json_build_object('u', new.id, 'r', 'suspended')::text);
  end if;
  return new;
end;
$$;
revoke all on function auth.notify_account_revoked() from public;

drop trigger if exists users_notify_revoked on auth.users;
create trigger users_notify_revoked
  after delete or update of banned_until, deleted_at on auth.users
  for each row execute function auth.notify_account_revoked();
