-- The market tables' row-level security, stated one table at a time (20261124600000_market.sql turned
-- it on in a loop, which readers and static checks of the schema cannot see). No change in behaviour:
-- enabling it again is a no-op. Everyone reads; the server and the admin functions write (decision 127).
alter table public.market_indices enable row level security;
alter table public.index_points enable row level security;
alter table public.index_point_revisions enable row level security;
alter table public.flower_price_observations enable row level security;
alter table public.market_securities enable row level security;
alter table public.market_constituents enable row level security;
alter table public.market_closes enable row level security;
alter table public.market_close_revisions enable row level security;
