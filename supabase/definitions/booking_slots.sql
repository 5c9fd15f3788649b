-- The booking form's taken slots (issue 21 item 10): the date and time of every confirmed (or completed)
-- booking in a range, and nothing else about them — bookings themselves stay readable only by their
-- owners and admins. The insert guard (private.guard_booking, admin_bookings.sql) refuses these slots too.

create or replace function public.taken_booking_slots(from_date date, to_date date)
returns table (booking_date text, booking_time text)
language plpgsql stable security definer set search_path = ''
as $$
begin
  if from_date is null or to_date is null or to_date < from_date or to_date - from_date > 400 then
    raise exception using errcode = '22023', message = 'Ask for at most 400 days, from_date before to_date.';
  end if;
  return query
    select distinct b.booking_date, b.booking_time
    from public.bookings b
    where b.status in ('confirmed', 'completed')
      and b.booking_date >= to_char(from_date, 'YYYY-MM-DD')
      and b.booking_date <= to_char(to_date, 'YYYY-MM-DD')
    order by 1, 2;
end
$$;
revoke all on function public.taken_booking_slots(date, date) from public;
grant execute on function public.taken_booking_slots(date, date) to anon, authenticated, service_role;
