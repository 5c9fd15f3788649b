-- Market imports at size (issue 20, decision 144): the reference from a close to its security is
-- checked once per statement instead of once per row. A foreign key runs one lookup per inserted row
-- (a third of a million-row import's time); the statement triggers on public.market_closes and
-- public.market_securities (supabase/definitions/market_compute.sql) check the same rule over all the
-- rows a statement wrote, with the same error code (23503) and the same locks (FOR KEY SHARE on the
-- securities named).
alter table public.market_closes drop constraint if exists market_closes_ticker_fkey;
