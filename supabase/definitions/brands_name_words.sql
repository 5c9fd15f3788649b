-- The brand directory's words (decision 272): the words of every live brand's name
-- (private.brand_name_words), kept as brands are written, and a typed name turned into the words to
-- look for in brands_live_name_words_idx.

-- One key for the vocabulary's lock: a statement adding words takes it shared, one removing words
-- exclusively, so a word is never removed while a brand that still holds it is being written.
create or replace function private.brand_name_words_lock_key() returns bigint
language sql immutable parallel safe set search_path = ''
as $$
  select 272272272::bigint
$$;
revoke all on function private.brand_name_words_lock_key() from public, anon, authenticated;

-- The words of the names that became live or changed (added) and of those that stopped being live or
-- changed (removed, unless a live brand still holds them). Statement-level, so an import of thousands
-- of brands adds their words in one statement. An archived or merged brand's words leave with it.
create or replace function private.brands_keep_name_words() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_added text[];
  v_removed text[];
begin
  if tg_op = 'TRUNCATE' then
    perform pg_advisory_xact_lock(private.brand_name_words_lock_key());
    delete from private.brand_name_words;
    return null;
  end if;
  if tg_op = 'INSERT' then
    v_added := array(select distinct t.lexeme from brands_arrived a
      cross join lateral unnest(to_tsvector('simple'::regconfig, a.name)) t where a.archived_at is null);
  elsif tg_op = 'UPDATE' then
    -- Only the rows whose name or being live changed (most updates change neither).
    v_added := array(select distinct t.lexeme from brands_arrived a
      join brands_left l on l.id = a.id
      cross join lateral unnest(to_tsvector('simple'::regconfig, a.name)) t
      where a.archived_at is null and (l.archived_at is not null or l.name is distinct from a.name));
    v_removed := array(select distinct t.lexeme from brands_left l
      join brands_arrived a on a.id = l.id
      cross join lateral unnest(to_tsvector('simple'::regconfig, l.name)) t
      where l.archived_at is null and (a.archived_at is not null or a.name is distinct from l.name));
  else
    v_removed := array(select distinct t.lexeme from brands_left l
      cross join lateral unnest(to_tsvector('simple'::regconfig, l.name)) t where l.archived_at is null);
  end if;
  if cardinality(v_removed) > 0 then
    -- Waits for the statements adding words to end, so the check below sees their brands.
    perform pg_advisory_xact_lock(private.brand_name_words_lock_key());
    delete from private.brand_name_words w
    where w.word = any(v_removed)
      and not exists (select 1 from public.brands b
        where b.archived_at is null
          and to_tsvector('simple'::regconfig, b.name) operator(pg_catalog.@@) private.exact_lexeme(w.word));
  end if;
  if cardinality(v_added) > 0 then
    perform pg_advisory_xact_lock_shared(private.brand_name_words_lock_key());
    insert into private.brand_name_words (word)
    select w from unnest(v_added) w order by w
    on conflict do nothing;
  end if;
  return null;
end
$$;
revoke all on function private.brands_keep_name_words() from public, anon, authenticated;

-- Transition tables allow one event per trigger, so four triggers share the function.
create or replace trigger keep_name_words_added after insert on public.brands
  referencing new table as brands_arrived for each statement execute function private.brands_keep_name_words();
create or replace trigger keep_name_words_changed after update on public.brands
  referencing old table as brands_left new table as brands_arrived
  for each statement execute function private.brands_keep_name_words();
create or replace trigger keep_name_words_removed after delete on public.brands
  referencing old table as brands_left for each statement execute function private.brands_keep_name_words();
create or replace trigger keep_name_words_emptied after truncate on public.brands
  for each statement execute function private.brands_keep_name_words();

-- The vocabulary again from the live brands, for an import that wrote them with the triggers off
-- (session_replication_role = replica); brands_recount_live calls it.
create or replace function private.brands_refill_name_words() returns void
language plpgsql volatile security definer set search_path = ''
as $$
begin
  perform pg_advisory_xact_lock(private.brand_name_words_lock_key());
  delete from private.brand_name_words;
  insert into private.brand_name_words (word)
  select distinct t.lexeme
  from public.brands b cross join lateral unnest(to_tsvector('simple'::regconfig, b.name)) t
  where b.archived_at is null;
end
$$;
revoke all on function private.brands_refill_name_words() from public, anon, authenticated;

-- A typed name as the words to look for (decision 272): each word typed (the first 8), as itself, as
-- the words of live brands it begins (2 characters or more; more than 64 such words stay a prefix
-- term), or, for a word of 3 letters or more, as one of its 32 closest words and those ranked as the
-- 32nd, up to 64 (pg_trgm similarity 0.3 or more, then fewest letters changed; decisions 273, 274) —
-- "gren thum" looks for (green or …)
-- and (thumb or …). Every word typed must match. Null when the text holds no word. search_brands runs
-- with its caller's rights; this reads the private vocabulary, which holds no more than the directory
-- shows (every live brand's name).
create or replace function private.brands_name_query(p_typed text) returns tsquery
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_words tsquery;
  v_part tsquery;
  v_token text;
  v_completions text[];
  v_word text;
begin
  for v_token in
    select t.lexeme from unnest(to_tsvector('simple'::regconfig, p_typed)) t order by t.positions[1] limit 8
  loop
    v_part := private.exact_lexeme(v_token);
    if v_token ~ '^[[:alnum:]]{2,100}$' then
      -- The words starting with the token, in byte order: from it up to its last character's successor.
      v_completions := array(
        select w.word from private.brand_name_words w
        where w.word >= (v_token collate "C")
          and w.word < ((left(v_token, -1) || chr(ascii(right(v_token, 1)) + 1)) collate "C")
        order by w.word
        limit 65);
      if cardinality(v_completions) > 64 then
        v_part := to_tsquery('simple'::regconfig, '''' || v_token || ''':*');
      else
        foreach v_word in array v_completions loop
          if v_word <> v_token then
            v_part := v_part operator(pg_catalog.||) private.exact_lexeme(v_word);
          end if;
        end loop;
      end if;
    end if;
    if v_token ~ '^[[:alpha:]]{3,100}$' then
      -- The 32 closest words and every word ranked as the 32nd, up to 64 (decisions 273, 274): in a
      -- dense vocabulary dozens of words tie, and which of them a bare limit kept was chance (at 100×
      -- the bench's typo'd "peora mioror" lost "peyora" among 47 words as close, and found nothing).
      for v_word in
        select private.close_words(v_token, array(
          select w.word from private.brand_name_words w where w.word operator(extensions.%) v_token), 32, 64)
      loop
        v_part := v_part operator(pg_catalog.||) private.exact_lexeme(v_word);
      end loop;
    end if;
    v_words := case when v_words is null then v_part else v_words operator(pg_catalog.&&) v_part end;
  end loop;
  return v_words;
end
$$;
revoke all on function private.brands_name_query(text) from public;
grant execute on function private.brands_name_query(text) to anon, authenticated, service_role;
