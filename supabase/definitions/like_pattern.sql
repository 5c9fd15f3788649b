-- A `like`/`ilike` pattern for "contains the text as typed": the text's % _ and \ escaped (the default
-- escape character), wrapped in %. Null for null. Used by every search that builds one (decisions 120,
-- 123, 256, 258).
create or replace function private.contains_pattern(typed text) returns text
language sql immutable strict parallel safe set search_path = ''
as $$
  select '%' || replace(replace(replace(typed, '\', '\\'), '%', '\%'), '_', '\_') || '%'
$$;
revoke all on function private.contains_pattern(text) from public;
-- search_brands runs with its caller's rights.
grant execute on function private.contains_pattern(text) to anon, authenticated, service_role;

-- A search's runs of letters and digits, and its other characters, as a condition on the names'
-- (decisions 261 and 265), for a search without three letters or digits in a row (so every run is one
-- or two long): every run must be among the name's short runs (`private.name_grams`) and every other
-- character (not a letter, digit or space) among its marks (`private.name_marks`); their GIN indexes
-- serve the condition. Null only for a search of nothing but spaces, which the callers have trimmed to
-- ''. `p_name` is the caller's column reference (`p.name`), not user input.
create or replace function private.name_runs_condition(p_name text, p_typed text) returns text
language sql immutable parallel safe set search_path = ''
as $$
  select nullif(concat_ws(' and ',
      case when cardinality(r.runs) > 0 then format('private.name_grams(%s) @> %L::text[]', p_name, r.runs) end,
      case when cardinality(r.marks) > 0 then format('private.name_marks(%s) @> %L::text[]', p_name, r.marks) end),
    '')
  from (select array(select distinct m[1] from regexp_matches(lower(p_typed), '([[:alnum:]]+)', 'g') as m) as runs,
          private.name_marks(p_typed) as marks) r
$$;
revoke all on function private.name_runs_condition(text, text) from public;
-- search_brands runs with its caller's rights (decision 272).
grant execute on function private.name_runs_condition(text, text) to anon, authenticated, service_role;

-- The keys of where a search's words meet (`private.name_meetings`, decision 270), as a condition on
-- the names', or null when it has none. Every key is a necessary condition of the name's `ilike`: where
-- the search's words meet, the name's words meet with the same characters at the join, in lower case
-- as `ilike` compares them. The search's first word may be the end of a name's word and its last word
-- the start of one, so a meeting makes a key only where those hold three characters or more; the words
-- between them are whole words of any length. `p_name` is the caller's column reference (`p.name`), not
-- user input.
create or replace function private.name_meetings_condition(p_name text, p_typed text) returns text
language sql immutable parallel safe set search_path = ''
as $$
  select case when cardinality(k.keys) > 0
    then format('private.name_meetings(%s) @> %L::text[]', p_name, k.keys) end
  from (select private.news_fingerprint_pairs(array_to_string(w.words[
      (case when char_length(w.words[1]) < 3 then 2 else 1 end)
      : (cardinality(w.words) - case when char_length(w.words[cardinality(w.words)]) < 3 then 1 else 0 end)],
      ' ')) as keys
    from (select string_to_array(lower(p_typed), ' ') as words) w) k
$$;
revoke all on function private.name_meetings_condition(text, text) from public;
-- search_brands runs with its caller's rights (decision 272).
grant execute on function private.name_meetings_condition(text, text) to anon, authenticated, service_role;

-- A typed word's close words among a vocabulary's candidates (those pg_trgm's `%` finds, similarity at
-- least 0.3), ranked by similarity, then by edit distance (fuzzystrmatch's levenshtein, which reads at
-- most 255 characters), then in byte order: the `p_closest` first other than the word itself and every
-- word ranked the same as the last of them, up to `p_most` (decisions 273 and 274). In a dense
-- vocabulary dozens of words tie on similarity, and which of them a bare limit kept was chance; among
-- them the words one letter away come first. Used by the brand directory's search
-- (`private.brands_name_query`) and the Scammer Network's (`search_scammer_reports`), which run as their
-- owner: the API roles need not execute it.
create or replace function private.close_words(p_typed text, p_candidates text[], p_closest integer, p_most integer)
returns setof text
language sql immutable parallel safe set search_path = ''
as $$
  with scored as (
    select c.word, extensions.similarity(c.word, p_typed) as s
    from unnest(p_candidates) c(word)
    where c.word <> p_typed
  ),
  near as (
    select c.word, c.s, extensions.levenshtein(left(c.word, 255), left(p_typed, 255)) as d
    from scored c
    where c.s >= 0.3
  ),
  last_kept as (
    select n.s, n.d from near n order by n.s desc, n.d offset greatest(p_closest, 1) - 1 limit 1
  )
  select n.word from near n
  where not exists (select 1 from last_kept)
    or exists (select 1 from last_kept l where n.s > l.s or (n.s = l.s and n.d <= l.d))
  order by n.s desc, n.d, n.word
  limit p_most
$$;
revoke all on function private.close_words(text, text[], integer, integer) from public;
