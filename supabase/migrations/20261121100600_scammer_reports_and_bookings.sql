-- HighGrade product schema, part 7: scammer reports (spec §2 dialog, §3, §5 "Scammer report",
-- design.md "Scammer database") and promo-session bookings (spec §2, §3, §5 "Booking", §9).

-- ---------------------------------------------------------------------------------------------------
-- scammer_reports: submitted → under_review → published | rejected. Reporters submit as themselves and
-- see their own reports; published reports are for members with access; admins review.
-- ---------------------------------------------------------------------------------------------------

create table if not exists public.scammer_reports (
  id uuid primary key default gen_random_uuid(),
  -- §5 lengths (trimmed); text still holding what the sanitiser removes (< > ' " & ` javascript: data:
  -- vbscript:) did not come through the web app's cleaning and is refused.
  scammer_name text not null
    constraint scammer_reports_scammer_name_length check (private.trimmed_length(scammer_name) between 2 and 100)
    constraint scammer_reports_scammer_name_sanitised check (not private.has_unsanitised_text(scammer_name)),
  scammer_description text not null
    constraint scammer_reports_scammer_description_length check (private.trimmed_length(scammer_description) between 10 and 1000)
    constraint scammer_reports_scammer_description_sanitised check (not private.has_unsanitised_text(scammer_description)),
  incident_details text not null
    constraint scammer_reports_incident_details_length check (private.trimmed_length(incident_details) between 20 and 2000)
    constraint scammer_reports_incident_details_sanitised check (not private.has_unsanitised_text(incident_details)),
  location text
    constraint scammer_reports_location_length check (location is null or private.trimmed_length(location) between 2 and 200)
    constraint scammer_reports_location_sanitised check (location is null or not private.has_unsanitised_text(location)),
  business_name text
    constraint scammer_reports_business_name_length check (business_name is null or private.trimmed_length(business_name) between 2 and 200)
    constraint scammer_reports_business_name_sanitised check (business_name is null or not private.has_unsanitised_text(business_name)),
  contact_info text
    constraint scammer_reports_contact_info_length check (contact_info is null or private.trimmed_length(contact_info) between 5 and 500)
    constraint scammer_reports_contact_info_sanitised check (contact_info is null or not private.has_unsanitised_text(contact_info)),
  -- "a number >= 0": dollars and cents, below a trillion, never NaN or infinity.
  amount_scammed numeric
    constraint scammer_reports_amount_scammed_range check (
      amount_scammed is null
      or (amount_scammed <> 'NaN'::numeric and amount_scammed >= 0 and amount_scammed < 1000000000000
          and scale(amount_scammed) <= 2)
    ),
  -- Not in the future: checked on write by guard_scammer_report (a CHECK may not depend on today).
  date_of_incident date
    constraint scammer_reports_date_of_incident_range check (date_of_incident is null or date_of_incident >= date '1970-01-01'),
  reporter_user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  status text not null default 'submitted'
    constraint scammer_reports_status_check check (status in ('submitted', 'under_review', 'published', 'rejected')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create index if not exists scammer_reports_reporter_user_id_created_at_idx
  on public.scammer_reports (reporter_user_id, created_at desc);
create index if not exists scammer_reports_status_created_at_idx
  on public.scammer_reports (status, created_at desc);

alter table public.scammer_reports enable row level security;

drop policy if exists "scammer_reports: own, published with access, admins all" on public.scammer_reports;
create policy "scammer_reports: own, published with access, admins all" on public.scammer_reports
  for select to authenticated
  using (
    reporter_user_id = (select auth.uid())
    or (status = 'published' and (select public.has_scammer_access()))
    or (select public.has_role('admin'))
  );

drop policy if exists "scammer_reports: submit as yourself" on public.scammer_reports;
create policy "scammer_reports: submit as yourself" on public.scammer_reports
  for insert to authenticated
  with check (reporter_user_id = (select auth.uid()) and status = 'submitted');

drop policy if exists "scammer_reports: admins review" on public.scammer_reports;
create policy "scammer_reports: admins review" on public.scammer_reports
  for update to authenticated
  using ((select public.has_role('admin')))
  with check ((select public.has_role('admin')));

drop policy if exists "scammer_reports: admins delete" on public.scammer_reports;
create policy "scammer_reports: admins delete" on public.scammer_reports
  for delete to authenticated
  using ((select public.has_role('admin')));

create or replace function private.guard_scammer_report() returns trigger
language plpgsql set search_path = ''
as $$
begin
  -- For every writer: an incident cannot lie in the future. One day of slack for time zones ahead of
  -- UTC (the browser checks against the reporter's local date).
  if new.date_of_incident is not null
    and (tg_op = 'INSERT' or new.date_of_incident is distinct from old.date_of_incident)
    and new.date_of_incident > (now() at time zone 'utc')::date + 1 then
    raise exception using errcode = 'check_violation', constraint = 'scammer_reports_date_of_incident_not_future',
      message = 'Incident date cannot be in the future.';
  end if;
  if private.is_privileged() or public.has_role('admin') then
    return new;
  end if;
  if tg_op = 'INSERT' then
    if new.status is distinct from 'submitted' then
      raise exception using errcode = 'insufficient_privilege',
        message = 'reports are submitted for review: scammer_reports.status is set by the reviewers';
    end if;
    -- §9: 3 reports per 15 minutes per user, 10 per client address.
    perform private.enforce_insert_rate('insert:scammer_reports', 3, 10, interval '15 minutes');
  end if;
  return new;
end
$$;
revoke all on function private.guard_scammer_report() from public;

create or replace trigger guard_scammer_report before insert or update on public.scammer_reports
  for each row execute function private.guard_scammer_report();
create or replace trigger guard_timestamps before insert or update on public.scammer_reports
  for each row execute function private.guard_timestamps('created_at', 'updated_at');
create or replace trigger guard_immutable before update on public.scammer_reports
  for each row execute function private.guard_immutable('reporter_user_id');
create or replace trigger touch_updated_at before update on public.scammer_reports
  for each row execute function private.touch_updated_at();

-- ---------------------------------------------------------------------------------------------------
-- bookings: promo-session requests, anonymous or as the signed-in user; admins handle them and owners
-- see their own.
-- ---------------------------------------------------------------------------------------------------

create table if not exists public.bookings (
  id uuid primary key default gen_random_uuid(),
  user_id uuid default auth.uid() references auth.users (id) on delete cascade,
  full_name text not null
    constraint bookings_full_name_length check (private.trimmed_length(full_name) between 2 and 100)
    constraint bookings_full_name_markup check (not (private.has_html(full_name) or private.has_script_markup(full_name))),
  email text not null constraint bookings_email_format check (private.is_email(email)),
  phone text constraint bookings_phone_format check (phone is null or private.is_phone(phone)),
  company_name text
    constraint bookings_company_name_length check (company_name is null or private.trimmed_length(company_name) between 1 and 200)
    constraint bookings_company_name_markup check (company_name is null or not private.has_script_markup(company_name)),
  product_name text not null
    constraint bookings_product_name_length check (private.trimmed_length(product_name) between 1 and 200)
    constraint bookings_product_name_markup check (not private.has_script_markup(product_name)),
  product_description text
    constraint bookings_product_description_length check (product_description is null or private.trimmed_length(product_description) between 1 and 2000)
    constraint bookings_product_description_markup check (product_description is null or not private.has_script_markup(product_description)),
  product_category text not null
    constraint bookings_product_category_check check (product_category in (
      'Flower', 'Concentrates', 'Edibles', 'Vape Cartridges', 'Topicals', 'Accessories', 'Seeds', 'Other'
    )),
  -- Text, as the web app sends them (§3). Not in the past: checked on write by guard_booking.
  booking_date text not null constraint bookings_booking_date_format check (private.is_iso_date(booking_date)),
  -- §9: half-hour slots from 09:00 through 17:00.
  booking_time text not null
    constraint bookings_booking_time_slot check (booking_time in (
      '09:00', '09:30', '10:00', '10:30', '11:00', '11:30', '12:00', '12:30', '13:00',
      '13:30', '14:00', '14:30', '15:00', '15:30', '16:00', '16:30', '17:00'
    )),
  special_requests text
    constraint bookings_special_requests_length check (special_requests is null or private.trimmed_length(special_requests) between 1 and 2000)
    constraint bookings_special_requests_markup check (special_requests is null or not private.has_script_markup(special_requests)),
  created_at timestamptz not null default now()
);

create index if not exists bookings_user_id_idx on public.bookings (user_id) where user_id is not null;
create index if not exists bookings_created_at_idx on public.bookings (created_at desc);
create index if not exists bookings_booking_date_time_idx on public.bookings (booking_date, booking_time);

alter table public.bookings enable row level security;

drop policy if exists "bookings: visitors book anonymously" on public.bookings;
create policy "bookings: visitors book anonymously" on public.bookings
  for insert to anon
  with check (user_id is null);

drop policy if exists "bookings: members book anonymously or as themselves" on public.bookings;
create policy "bookings: members book anonymously or as themselves" on public.bookings
  for insert to authenticated
  with check (user_id is null or user_id = (select auth.uid()));

drop policy if exists "bookings: owners and admins read" on public.bookings;
create policy "bookings: owners and admins read" on public.bookings
  for select to authenticated
  using (user_id = (select auth.uid()) or (select public.has_role('admin')));

drop policy if exists "bookings: admins edit" on public.bookings;
create policy "bookings: admins edit" on public.bookings
  for update to authenticated
  using ((select public.has_role('admin')))
  with check ((select public.has_role('admin')));

drop policy if exists "bookings: admins delete" on public.bookings;
create policy "bookings: admins delete" on public.bookings
  for delete to authenticated
  using ((select public.has_role('admin')));

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
  if tg_op = 'INSERT' and not private.is_privileged() and not public.has_role('admin') then
    -- Anyone may book, so anyone could flood: 10 requests an hour per user, 20 per client address.
    perform private.enforce_insert_rate('insert:bookings', 10, 20, interval '1 hour');
  end if;
  return new;
end
$$;
revoke all on function private.guard_booking() from public;

create or replace trigger guard_booking before insert or update on public.bookings
  for each row execute function private.guard_booking();
create or replace trigger guard_timestamps before insert or update on public.bookings
  for each row execute function private.guard_timestamps('created_at');
