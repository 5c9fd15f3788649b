-- A vote no longer moves its brand's tallies row (decision 159). The trigger on product_tallies updated
-- brand_tallies in every vote's transaction: one row per brand that every vote on any of the brand's
-- products locked until its commit, so votes on a popular brand's products waited for each other.
-- private.votes_broadcast_tallies() (supabase/definitions/votes_cast.sql), run each second by every
-- server process, now recomputes the brands of the products whose tallies changed.
drop trigger if exists brands_product_tally_changed on public.product_tallies;
drop function if exists private.brands_product_tally_changed();
