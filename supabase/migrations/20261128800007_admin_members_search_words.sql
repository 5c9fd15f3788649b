-- The admins' member search finds members for whom every word typed begins a word of their email,
-- username or name (decision 255, issue 40 part 4). It looked for any part of them (`ilike '%…%'` over a
-- trigram index), whose index scan reads, for each candidate of a term's rarest trigram, the posting
-- lists of the trigrams most members share ("gmail", ".com"): at ten times the members the search cost
-- 2.7× as much (bench/scale.ts).
--
-- Now a full-text index holds every beginning of every word of the three ("mel", "me", "m" for "mel"),
-- so a typed word is one exact term: GIN finds the members with the rarest typed word and skips through
-- the posting lists of the common ones ("gmail") at them, where a prefix term (`gmail:*`) would read the
-- whole posting list of every word so starting. The cost follows the matches, not the members.
--
-- Words are what is left between ASCII spaces, punctuation and symbols (the web app splits a search at
-- the same characters); letters outside ASCII stay inside words, and the 'simple' configuration lowers
-- each word's case. public.admin_members (definitions/admin_members.sql) exposes the function's value as
-- `search_words`; the view is dropped here because its `search_text` column goes, and the definitions
-- make it again.

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
-- The admins read public.admin_members as themselves; its search column calls this.
grant execute on function private.member_search_words(text, text, text) to authenticated, service_role;

drop view if exists public.admin_members;
drop index if exists public.profiles_member_search_trgm_idx;

create index if not exists profiles_member_search_words_idx
  on public.profiles using gin (private.member_search_words(email, username, full_name));
