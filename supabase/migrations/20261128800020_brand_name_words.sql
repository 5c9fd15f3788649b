-- The brand directory's words (issue 40 part 4, decision 272): a typed name is looked for as words, the
-- Scammer Network's way (decision 123), not as trigrams. Each live brand's name words in a full-text
-- index, and every word of a live brand's name in a small private vocabulary, where a misspelt word finds
-- its close words (trigrams) and a short one the words it begins (byte order). A search
-- by word similarity had to read the posting list of every trigram typed, each as long as the directory
-- (bench/scale.ts: a typo'd name 4.9 ms among 22,000 brands, 39.7 ms among 2,200,000). Kept by
-- definitions/brands_name_words.sql.
create index if not exists brands_live_name_words_idx
  on public.brands using gin (to_tsvector('simple'::regconfig, name)) where archived_at is null;

create table if not exists private.brand_name_words (
  word text collate "C" primary key
);
-- GIN: the close words of a typed word are those sharing enough of its trigrams, then sorted nearest
-- first; a GiST walk nearest-first read 540 index pages for 32 words among 66,000 (10–16 ms, 1.7–6 ms
-- this way, bench/scale.ts at 10×).
create index if not exists brand_name_words_trgm_idx
  on private.brand_name_words using gin (word extensions.gin_trgm_ops);
revoke all on table private.brand_name_words from public, anon, authenticated, service_role;

insert into private.brand_name_words (word)
select distinct t.lexeme
from public.brands b cross join lateral unnest(to_tsvector('simple'::regconfig, b.name)) t
where b.archived_at is null
on conflict do nothing;
