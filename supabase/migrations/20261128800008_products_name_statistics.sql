-- The Pass or Gas name search keeps to its trigram index as the catalogue grows (issue 40 part 4).
--
-- The planner prices `name ilike '%word%'` from the column's histogram: the share of its entries the
-- pattern matches. With the default 100 entries, a word that happens to be in one of them is priced as
-- one product in a hundred, however rare it is. For a search ordered by Top, Trending or Newest the
-- planner then walks that order's index and checks each product's name, expecting 25 matches early: it
-- reads every product when the word is rare. Among 500,000 products (bench/scale.ts at 10×, PostgreSQL
-- 15) such a search took 3.3–4.2 s, past a visitor's 3 s statement timeout, for 29 of 30 words taken
-- from the histogram; the same words took 2–15 ms through the trigram index.
--
-- With 1,000 entries such a word is priced as one in a thousand: at 500,000 products the same 30 words
-- took 2–15 ms, each through the trigram index. A common word still walks the order's index, which
-- then stops at the page. By the planner's own costs the walk wins for a histogram word again from
-- roughly a million products (not measured). Planning a search compares the pattern with the 1,000
-- entries, about a millisecond.
alter table public.products alter column name set statistics 1000;

analyze public.products;
