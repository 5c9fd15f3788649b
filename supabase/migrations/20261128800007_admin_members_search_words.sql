-- The admins' member search finds members for whom every word typed begins a word of their email,
-- username or name (decision 255, issue 40 part 4). It looked for any part of them (`ilike '%…%'` over a
-- trigram index), whose index scan reads, for each candidate of a term's rarest trigram, the posting
-- lists of the trigrams most members share ("gmail", ".com"): at ten times the members the search cost
-- 2.7× as much (bench/scale.ts).
--
-- Now each member's row in private.member_search holds every beginning of every word of the three
-- ("mel", "me", "m" for "mel") in a full-text index, so a typed word is one exact term: GIN finds the
-- members with the rarest typed word and skips through the posting lists of the common ones ("gmail")
-- at them, where a prefix term (`gmail:*`) would read the whole posting list of every word so starting.
-- The cost follows the matches, not the members.
--
-- Words are what is left between ASCII spaces, punctuation and symbols (the web app splits a search at
-- the same characters); letters outside ASCII stay inside words, and the 'simple' configuration lowers
-- each word's case.

-- About 37 µs a call on PostgreSQL 15 here: computed when a profile is written (the trigger in
-- definitions/admin_members.sql), never per row of a search.
create or replace function private.member_search_words(email text, username text, full_name text)
returns tsvector
language sql immutable parallel safe set search_path = ''
as $$
  select array_to_tsvector(array(
    select distinct left(w.lexeme, n)
    from unnest(to_tsvector('simple'::regconfig, regexp_replace(
      coalesce(email, '') || ' ' || coalesce(username, '') || ' ' || coalesce(full_name, ''),
      '[\x01-\x2f\x3a-\x40\x5b-\x60\x7b-\x7f]+', ' ', 'g'))) w,
      generate_series(1, length(w.lexeme)) n))
$$;
comment on function private.member_search_words(text, text, text) is
  'Every beginning of every word of a member''s email, username and name: the admins'' member search (decision 255).';
revoke all on function private.member_search_words(text, text, text) from public;

-- A table of its own, not a column of profiles: profiles keeps the shape members and clients read, and a
-- search reads stored words (a row's check is a lookup, never the 37 µs above).
create table if not exists private.member_search (
  user_id uuid primary key references public.profiles (user_id) on delete cascade,
  words tsvector not null
);
-- Without GIN's pending list (fastupdate): a profile write adds its words to the index at once (profile
-- writes are rare), so no search reads a list of recent entries first, and the planner, which prices
-- that list, keeps choosing the index.
create index if not exists member_search_words_idx on private.member_search using gin (words)
  with (fastupdate = off);
revoke all on table private.member_search from public, anon, authenticated, service_role;

insert into private.member_search (user_id, words)
select p.user_id, private.member_search_words(p.email, p.username, p.full_name) from public.profiles p
on conflict (user_id) do update set words = excluded.words;

analyze private.member_search;

-- public.admin_member_search (definitions/admin_members.sql) reads `search_words` from the table above;
-- admin_members is dropped here because its `search_text` column goes (and the search view with it, which
-- depends on it on a second run), and the definitions make both again.
drop view if exists public.admin_member_search;
drop view if exists public.admin_members;
drop index if exists public.profiles_member_search_trgm_idx;
