-- The admin lists' orders as indexes (bench/admin.ts): with the tie-breaker in the index, a page is an
-- index scan that stops after its rows, so the view's per-row columns (the internal note) are computed
-- for the page only, not for every booking before a sort.
create index if not exists bookings_created_at_id_idx on public.bookings (created_at desc, id desc);
create index if not exists bookings_status_created_at_id_idx on public.bookings (status, created_at desc, id desc);
create index if not exists bookings_date_time_id_idx on public.bookings (booking_date, booking_time, id);
create index if not exists security_events_risk_created_at_id_idx on public.security_events (risk_level, created_at desc, id desc);
