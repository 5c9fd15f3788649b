-- The audit log as admins read it (issue 15 "Audit and security", decision 100), and the tables whose
-- admin changes it records. private.audit_log itself is created (append-only) by
-- 20261124100000_admin_audit_and_notify.sql.

-- A view owned by the schema owner (not security_invoker): it reads the private log and the actors'
-- emails, and shows rows only to admins. Everyone else reads an empty list.
create or replace view public.admin_audit_log as
  select
    l.id,
    l.at,
    l.actor_id,
    -- A scalar subquery, not a join: a count over the view never touches auth.users.
    (select u.email::text from auth.users u where u.id = l.actor_id) as actor_email,
    l.action,
    l.target_table,
    l.target_id,
    l.before,
    l.after,
    -- Names instead of ids (issue 34, decision 167): who acted, and what the entry is about — a
    -- member's name for accounts, profiles, roles and subscriptions, a post's title, a booking's
    -- product and booker, else the row's own name or title. Only what admins read anyway.
    (select coalesce(nullif(trim(p.full_name), ''), '@' || p.username) from public.profiles p
      where p.user_id = l.actor_id) as actor_name,
    case
      when l.target_table in ('auth.users', 'public.profiles', 'public.scammer_subscriptions', 'public.user_roles')
        then (select coalesce(nullif(trim(p.full_name), ''), '@' || p.username, p.email) from public.profiles p
          where p.user_id::text = case when l.target_table = 'public.user_roles'
            then coalesce(l.after, l.before) ->> 'user_id' else l.target_id end)
      when l.target_table = 'public.bookings'
        then nullif(concat_ws(' — ', coalesce(l.after, l.before) ->> 'product_name',
          coalesce(l.after, l.before) ->> 'full_name'), '')
      else coalesce(coalesce(l.after, l.before) ->> 'name', coalesce(l.after, l.before) ->> 'title')
    end as target_name
  from private.audit_log l
  where (select public.has_role('admin'));

comment on view public.admin_audit_log is
  'The append-only audit log (private.audit_log) with the actor''s email and name and the target''s name; rows only for admins.';
revoke all on table public.admin_audit_log from public, anon, authenticated, service_role;
grant select on table public.admin_audit_log to authenticated, service_role;

-- Admin-managed tables of this area. Members' own inserts of bookings are not admin actions, so
-- bookings record changes and deletions only.
create or replace trigger audit after insert or update or delete on public.user_roles
  for each row execute function private.audit_row_change();
create or replace trigger audit after insert or update or delete on public.admin_posts
  for each row execute function private.audit_row_change();
create or replace trigger audit after update or delete on public.bookings
  for each row execute function private.audit_row_change();
