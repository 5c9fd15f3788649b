-- Promo-session bookings as admins handle them (issue 15 "Bookings", decision 101): the status flow
-- new → confirmed | declined, confirmed → completed; one confirmed booking per date and time slot (the
-- unique index of 20261124100000); an internal note only admins see; the booker told by mail (always)
-- and by a notification (when the booking belongs to a member).
-- guard_booking is redefined here (decision 089): first created in 20261121100600_scammer_reports_and_bookings.sql.

-- Bookings arrive as 'new'; only admins move them on.
drop policy if exists "bookings: visitors book anonymously" on public.bookings;
create policy "bookings: visitors book anonymously" on public.bookings
  for insert to anon
  with check (user_id is null and status = 'new');

drop policy if exists "bookings: members book anonymously or as themselves" on public.bookings;
create policy "bookings: members book anonymously or as themselves" on public.bookings
  for insert to authenticated
  with check ((user_id is null or user_id = (select auth.uid())) and status = 'new');

create or replace function private.booking_status_allowed(from_status text, to_status text) returns boolean
language sql immutable parallel safe set search_path = ''
as $$
  select (from_status, to_status) in (('new', 'confirmed'), ('new', 'declined'), ('confirmed', 'completed'))
$$;
revoke all on function private.booking_status_allowed(text, text) from public;
grant execute on function private.booking_status_allowed(text, text) to anon, authenticated, service_role;

create or replace function private.guard_booking() returns trigger
language plpgsql set search_path = ''
as $$
declare
  -- The browser's calendar works in the visitor's time zone: allow "today" anywhere on earth.
  earliest date := (now() at time zone 'utc')::date - 1;
  latest date := (now() at time zone 'utc')::date + 366;
begin
  if (tg_op = 'INSERT' or new.booking_date is distinct from old.booking_date) and private.is_iso_date(new.booking_date) then
    if new.booking_date::date < earliest then
      raise exception using errcode = 'check_violation', constraint = 'bookings_booking_date_not_past',
        message = 'A booking date cannot be in the past.';
    end if;
    if new.booking_date::date > latest then
      raise exception using errcode = 'check_violation', constraint = 'bookings_booking_date_within_year',
        message = 'A booking date can be at most one year ahead.';
    end if;
  end if;
  if tg_op = 'INSERT' then
    new.updated_at := now();
    if not private.is_privileged() and not public.has_role('admin') then
      if new.status is distinct from 'new' then
        raise exception using errcode = 'insufficient_privilege',
          message = 'bookings arrive as new: bookings.status is set by the admins';
      end if;
      new.status_changed_at := null;
      -- No same-day sessions (issue 21 item 10): the date must be after today wherever the booker is, so
      -- after today in the westernmost time zone (UTC-12) at least; the browser offers tomorrow onwards.
      -- (A missing date must reach its NOT NULL constraint, not these checks: is_iso_date(null) is true.)
      if new.booking_date is not null and private.is_iso_date(new.booking_date)
         and new.booking_date::date <= ((now() at time zone 'utc') - interval '12 hours')::date then
        raise exception using errcode = 'check_violation', constraint = 'bookings_booking_date_not_today',
          message = 'Promo sessions are booked at least one day ahead. Please choose a later date.';
      end if;
      -- A slot an admin already confirmed is taken. The booker cannot read others' bookings (RLS): ask
      -- the definer function that tells dates and times only (booking_slots.sql).
      if new.booking_date is not null and private.is_iso_date(new.booking_date) then
        if exists (
          select 1 from public.taken_booking_slots(new.booking_date::date, new.booking_date::date) t
          where t.booking_time = new.booking_time
        ) then
          raise exception using errcode = 'unique_violation', constraint = 'bookings_slot_taken',
            message = 'This time is already booked. Please choose another time.';
        end if;
      end if;
      -- Anyone may book, so anyone could flood: 10 requests an hour per user, 20 per client address.
      perform private.enforce_insert_rate('insert:bookings', 10, 20, interval '1 hour');
    end if;
    return new;
  end if;
  -- UPDATE, whoever makes it (admins through the API or the RPC below, the server's roles).
  new.updated_at := now();
  if new.status is distinct from old.status then
    if not private.booking_status_allowed(old.status, new.status) then
      raise exception using errcode = 'check_violation', constraint = 'bookings_status_flow',
        message = format('A %s booking cannot be marked %s.', old.status, new.status),
        hint = 'Bookings go from new to confirmed or declined, and from confirmed to completed.';
    end if;
    new.status_changed_at := now();
    if new.status = 'confirmed' and exists (
      select 1 from public.bookings b
      where b.booking_date = new.booking_date and b.booking_time = new.booking_time
        and b.status in ('confirmed', 'completed') and b.id <> new.id
    ) then
      raise exception using errcode = 'unique_violation', constraint = 'bookings_one_confirmed_per_slot',
        message = format('Another booking is already confirmed for %s at %s.', new.booking_date, new.booking_time);
    end if;
  elsif new.status_changed_at is distinct from old.status_changed_at and not private.is_privileged() then
    new.status_changed_at := old.status_changed_at;
  end if;
  return new;
end
$$;
revoke all on function private.guard_booking() from public;

-- "Monday, December 1, 2026" for a yyyy-MM-dd booking date.
create or replace function private.booking_date_words(value text) returns text
language sql immutable parallel safe set search_path = ''
as $$
  select case when private.is_iso_date(value) then to_char(value::date, 'FMDay, FMMonth FMDD, YYYY') else value end
$$;
revoke all on function private.booking_date_words(text) from public;

-- The booker hears about confirmation and refusal by mail (always) and in the bell (members); about
-- completion in the bell.
create or replace function private.booking_status_changed() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  day text := private.booking_date_words(new.booking_date);
  title text;
  message text;
begin
  if new.status is not distinct from old.status then
    return null;
  end if;
  case new.status
    when 'confirmed' then
      title := 'Your promo session is confirmed';
      message := format('Your promo session for %s on %s at %s Pacific Time is confirmed. We look forward to seeing you!',
        new.product_name, day, new.booking_time);
    when 'declined' then
      title := 'Your booking request was declined';
      message := format('We are sorry: we cannot host the promo session for %s on %s at %s Pacific Time. You are welcome to request another date.',
        new.product_name, day, new.booking_time);
    when 'completed' then
      title := 'Thank you for your promo session';
      message := format('Your promo session for %s on %s is marked as completed. Thank you for presenting with HighGrade!',
        new.product_name, day);
    else
      return null;
  end case;
  perform private.notify(new.user_id, 'booking.' || new.status, title, message, '/booking#my-bookings');
  if new.status in ('confirmed', 'declined') then
    perform private.queue_mail(
      new.email,
      'booking_status',
      title,
      format(E'Hello %s,\n\n%s', new.full_name, message),
      '/booking#my-bookings'
    );
  end if;
  return null;
end
$$;
revoke all on function private.booking_status_changed() from public;

create or replace trigger booking_status_changed after update of status on public.bookings
  for each row execute function private.booking_status_changed();

-- What admins list: every booking with its internal note. Owner's rights, rows only for admins.
create or replace view public.admin_bookings as
  select b.id, b.user_id, b.full_name, b.email, b.phone, b.company_name, b.product_name,
    b.product_description, b.product_category, b.booking_date, b.booking_time, b.special_requests,
    b.status, b.status_changed_at, b.created_at, b.updated_at,
    -- Scalar subqueries, not a join: a count over the view reads bookings alone.
    (select n.note from private.booking_notes n where n.booking_id = b.id) as admin_note,
    (select n.updated_at from private.booking_notes n where n.booking_id = b.id) as admin_note_updated_at
  from public.bookings b
  where (select public.has_role('admin'));
comment on view public.admin_bookings is 'Bookings with their internal notes; rows only for admins.';
revoke all on table public.admin_bookings from public, anon, authenticated, service_role;
grant select on table public.admin_bookings to authenticated, service_role;

-- One admin action on a booking: a new status, a new internal note, or both, in one transaction.
create or replace function public.admin_update_booking(booking_id uuid, status text default null, note text default null)
returns void
language plpgsql volatile security definer set search_path = ''
as $$
#variable_conflict use_column
declare
  current public.bookings%rowtype;
  old_note text;
begin
  if not public.has_role('admin') then
    raise exception using errcode = 'insufficient_privilege', message = 'Unauthorized';
  end if;
  select * into current from public.bookings b where b.id = admin_update_booking.booking_id for update;
  if not found then
    raise exception using errcode = 'PT404', message = 'Booking not found.';
  end if;
  if admin_update_booking.status is not null then
    if admin_update_booking.status not in ('new', 'confirmed', 'declined', 'completed') then
      raise exception using errcode = 'check_violation', message = format('Unknown booking status: %s.', left(admin_update_booking.status, 40));
    end if;
    if admin_update_booking.status is distinct from current.status then
      update public.bookings b set status = admin_update_booking.status where b.id = current.id;
    end if;
  end if;
  if admin_update_booking.note is not null then
    if char_length(admin_update_booking.note) > 2000 then
      raise exception using errcode = 'check_violation', constraint = 'booking_notes_note_length',
        message = 'The internal note can be at most 2000 characters.';
    end if;
    select n.note into old_note from private.booking_notes n where n.booking_id = current.id;
    if old_note is distinct from admin_update_booking.note then
      insert into private.booking_notes as n (booking_id, note, updated_by, updated_at)
      values (current.id, admin_update_booking.note, auth.uid(), now())
      on conflict (booking_id) do update set note = excluded.note, updated_by = excluded.updated_by, updated_at = now();
      perform private.audit('booking.note', 'public.bookings', current.id::text,
        jsonb_build_object('note', old_note), jsonb_build_object('note', admin_update_booking.note));
    end if;
  end if;
end
$$;
revoke all on function public.admin_update_booking(uuid, text, text) from public;
grant execute on function public.admin_update_booking(uuid, text, text) to authenticated, service_role;
comment on function public.admin_update_booking(uuid, text, text) is
  'Admins: move a booking along its status flow and/or set its internal note.';
