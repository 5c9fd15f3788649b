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
    u.email::text as actor_email,
    l.action,
    l.target_table,
    l.target_id,
    l.before,
    l.after
  from private.audit_log l
  left join auth.users u on u.id = l.actor_id
  where (select public.has_role('admin'));

comment on view public.admin_audit_log is
  'The append-only audit log (private.audit_log) with the actor''s email; rows only for admins.';
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
