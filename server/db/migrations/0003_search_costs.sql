-- What to_tsvector() really costs, told to the planner (decision 092). PostgreSQL prices it at 100
-- operator units: a fraction of what parsing a comment-sized text costs (tens of microseconds). At
-- that price a full-text search with `limit` looks cheapest as a sequential scan that stops at the
-- first match — and when nothing matches (`content=fts.zzz & !qqq`) that scan computes every row's
-- tsvector: 1.4 s on PostgreSQL and 2–19 s on the embedded database for 40,000 comments, where the
-- GIN index answers in milliseconds. At this price the planner takes the index for a selective search
-- and still stops at the first row of a search that matches nearly everything.
--
-- Changing a built-in function needs a superuser (the embedded database always is); a server where
-- the connecting role is not one keeps PostgreSQL's prices (the migration raises a notice).
do $$
begin
  alter function pg_catalog.to_tsvector(regconfig, text) cost 10000;
  alter function pg_catalog.to_tsvector(text) cost 10000;
exception when insufficient_privilege then
  raise notice 'text search costs left at their defaults: changing them needs a superuser (docs/decisions/092)';
end
$$;
