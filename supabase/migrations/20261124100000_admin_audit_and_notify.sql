-- Admin foundations (issue 15, decision 100): the audit log every admin action writes, the helpers the
-- product areas call (`private.audit_row_change()`, `private.audit(...)`, `private.notify(...)`), the
-- notification fields those helpers fill (kind, link), and the booking workflow's columns.
--
-- The helpers are created here, in a migration, so that any later migration (news, votes, brands,
-- reports, market) may attach `private.audit_row_change()` to its tables or call `private.notify` from
-- its triggers (decision 089: a migration may use what earlier migrations created, never definitions).
-- Later versions of these functions live in supabase/definitions/admin_*.sql.

-- ---------------------------------------------------------------------------------------------------
-- private.audit_log: who did what to which row, before and after, and when. Append-only for everyone:
-- no API role can read or write it directly (admins read it through public.admin_audit_log), and a
-- trigger refuses every UPDATE, DELETE and TRUNCATE whoever runs them.
-- ---------------------------------------------------------------------------------------------------

create table if not exists private.audit_log (
  id bigint generated always as identity primary key,
  at timestamptz not null default now(),
  -- auth.uid() of the caller; null for the server's own work (jobs, migrations, the CLI).
  actor_id uuid,
  -- 'INSERT' | 'UPDATE' | 'DELETE' for row changes, or an area's own verb ('booking.confirm', …).
  action text not null constraint audit_log_action_length check (char_length(action) between 1 and 100),
  target_table text not null constraint audit_log_target_table_length check (char_length(target_table) between 1 and 200),
  target_id text constraint audit_log_target_id_length check (target_id is null or char_length(target_id) <= 200),
  before jsonb,
  after jsonb
);

create index if not exists audit_log_at_idx on private.audit_log (at desc);
create index if not exists audit_log_actor_at_idx on private.audit_log (actor_id, at desc);
create index if not exists audit_log_target_at_idx on private.audit_log (target_table, at desc);
create index if not exists audit_log_action_at_idx on private.audit_log (action, at desc);

revoke all on table private.audit_log from public, anon, authenticated, service_role;

create or replace function private.audit_log_append_only() returns trigger
language plpgsql set search_path = ''
as $$
begin
  raise exception using errcode = 'insufficient_privilege',
    message = 'The audit log is append-only: its rows cannot be changed or deleted.';
end
$$;
revoke all on function private.audit_log_append_only() from public;

create or replace trigger append_only before update or delete on private.audit_log
  for each row execute function private.audit_log_append_only();
create or replace trigger append_only_truncate before truncate on private.audit_log
  for each statement execute function private.audit_log_append_only();

-- One audit row. SECURITY DEFINER so that triggers running as an API role can write the log they may
-- not touch themselves; not granted to the API roles, so only the database's own functions call it.
create or replace function private.audit(
  action text, target_table text, target_id text, before jsonb, after jsonb
) returns void
language sql volatile security definer set search_path = ''
as $$
  insert into private.audit_log (actor_id, action, target_table, target_id, before, after)
  values ((select auth.uid()), left(action, 100), left(target_table, 200), left(target_id, 200), before, after)
$$;
revoke all on function private.audit(text, text, text, jsonb, jsonb) from public;
comment on function private.audit(text, text, text, jsonb, jsonb) is
  'Appends one row to private.audit_log as the calling user (auth.uid()). For actions that are not plain row changes.';

-- Attach to any admin-managed table:
--   create trigger audit after insert or update or delete on public.X
--     for each row execute function private.audit_row_change();
create or replace function private.audit_row_change() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  row_before jsonb := case when tg_op in ('UPDATE', 'DELETE') then to_jsonb(old) end;
  row_after jsonb := case when tg_op in ('INSERT', 'UPDATE') then to_jsonb(new) end;
  id_of jsonb := coalesce(row_after, row_before);
begin
  if tg_op = 'UPDATE' and row_before = row_after then
    return null;
  end if;
  perform private.audit(
    tg_op,
    tg_table_schema || '.' || tg_table_name,
    coalesce(id_of ->> 'id', id_of ->> 'user_id'),
    row_before,
    row_after
  );
  return null;
end
$$;
revoke all on function private.audit_row_change() from public;
comment on function private.audit_row_change() is
  'Row trigger (AFTER INSERT OR UPDATE OR DELETE): records actor, TG_OP, table, row id, before/after in private.audit_log.';

-- ---------------------------------------------------------------------------------------------------
-- Notifications carry what they are about: a kind (for filtering and icons) and a link the bell opens.
-- ---------------------------------------------------------------------------------------------------

alter table public.notifications add column if not exists kind text not null default 'general';
alter table public.notifications add column if not exists link text;
alter table public.notifications drop constraint if exists notifications_kind_format;
alter table public.notifications add constraint notifications_kind_format
  check (kind ~ '^[a-z][a-z0-9_.]{0,49}$');
alter table public.notifications drop constraint if exists notifications_link_format;
-- A path inside the site ("/booking#my-bookings"), never another origin or a script URL.
alter table public.notifications add constraint notifications_link_format
  check (link is null or (char_length(link) <= 500 and link ~ '^/([^/\\[:space:]][^[:space:]]*)?$'));

-- Written by the database where an event happens (design.md §4), never by a browser. SECURITY DEFINER:
-- the member whose action causes the event may not insert notifications. Titles and messages longer
-- than the table allows are shortened rather than failing the action that caused them.
create or replace function private.notify(user_id uuid, kind text, title text, message text, link text)
returns void
language plpgsql volatile security definer set search_path = ''
as $$
begin
  if user_id is null or not exists (select 1 from auth.users u where u.id = notify.user_id) then
    return;
  end if;
  insert into public.notifications (user_id, kind, title, message, link)
  values (
    notify.user_id,
    coalesce(nullif(notify.kind, ''), 'general'),
    left(notify.title, 200),
    left(notify.message, 2000),
    notify.link
  );
end
$$;
revoke all on function private.notify(uuid, text, text, text, text) from public;
comment on function private.notify(uuid, text, text, text, text) is
  'Sends a notification to a member (skipped when the account does not exist). Called by triggers where events happen.';

-- ---------------------------------------------------------------------------------------------------
-- Bookings: new → confirmed | declined → completed. At most one confirmed (or completed) booking per
-- date and time slot. The internal note lives apart (private.booking_notes) so that a member reading
-- their own booking through the API can never see it.
-- ---------------------------------------------------------------------------------------------------

alter table public.bookings add column if not exists status text not null default 'new';
alter table public.bookings drop constraint if exists bookings_status_check;
alter table public.bookings add constraint bookings_status_check
  check (status in ('new', 'confirmed', 'declined', 'completed'));
alter table public.bookings add column if not exists status_changed_at timestamptz;
alter table public.bookings add column if not exists updated_at timestamptz not null default now();

create unique index if not exists bookings_one_confirmed_per_slot
  on public.bookings (booking_date, booking_time) where status in ('confirmed', 'completed');
create index if not exists bookings_status_created_at_idx on public.bookings (status, created_at desc);
create index if not exists bookings_category_created_at_idx on public.bookings (product_category, created_at desc);

create table if not exists private.booking_notes (
  booking_id uuid primary key references public.bookings (id) on delete cascade,
  note text not null constraint booking_notes_note_length check (char_length(note) <= 2000),
  updated_by uuid,
  updated_at timestamptz not null default now()
);
revoke all on table private.booking_notes from public, anon, authenticated, service_role;
create index if not exists profiles_created_at_idx on public.profiles (created_at desc);
