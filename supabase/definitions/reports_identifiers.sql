-- Identifier normalisation for the Scammer Network's repeat offenders (issue 19, product
-- §scammer-database, decision 124). In SQL so that one trigger covers every write (the report dialog,
-- the API, the CLI) and the search normalises what a reader types with the very same rules.

-- Phones to E.164. With a country code (+ or 00) any 8–15 digits; without one the default country is the
-- US/Canada (NANP): ten digits with a valid area code and exchange, or eleven starting with 1.
create or replace function private.normalise_phone(value text) returns text
language plpgsql immutable parallel safe set search_path = ''
as $$
declare
  raw text := btrim(coalesce(value, ''));
  digits text;
begin
  -- An extension ("x123", "ext. 4") is not part of the number.
  raw := regexp_replace(raw, '\s*(ext\.?|x|#)\s*\d{1,6}\s*$', '', 'i');
  digits := regexp_replace(raw, '[^0-9]', '', 'g');
  if raw ~ '^\+' then
    return case when char_length(digits) between 8 and 15 and digits !~ '^0' then '+' || digits end;
  end if;
  if digits ~ '^00' then
    digits := substr(digits, 3);
    return case when char_length(digits) between 8 and 15 and digits !~ '^0' then '+' || digits end;
  end if;
  if char_length(digits) = 11 and digits ~ '^1' then
    digits := substr(digits, 2);
  end if;
  if char_length(digits) = 10 and digits ~ '^[2-9]\d{2}[2-9]' then
    return '+1' || digits;
  end if;
  return null;
end
$$;

-- Emails lower-cased; Gmail ignores dots and "+tags", the big providers "+tags".
create or replace function private.normalise_email(value text) returns text
language plpgsql immutable parallel safe set search_path = ''
as $$
declare
  address text := lower(btrim(coalesce(value, '')));
  local_part text;
  domain text;
begin
  address := regexp_replace(address, '^mailto:', '');
  if address !~ '^[a-z0-9._%+''-]+@[a-z0-9-]+(\.[a-z0-9-]+)+$' or char_length(address) > 254 then
    return null;
  end if;
  local_part := split_part(address, '@', 1);
  domain := split_part(address, '@', 2);
  if domain in ('gmail.com', 'googlemail.com') then
    domain := 'gmail.com';
    local_part := replace(split_part(local_part, '+', 1), '.', '');
  elsif domain in ('outlook.com', 'hotmail.com', 'live.com', 'icloud.com', 'me.com', 'proton.me', 'protonmail.com', 'fastmail.com') then
    local_part := split_part(local_part, '+', 1);
  end if;
  if local_part = '' then
    return null;
  end if;
  return local_part || '@' || domain;
end
$$;

-- Websites to their registrable domain: scheme, "www.", port, path, query and case dropped; the last two
-- labels, or three under a known second-level public suffix (co.uk, com.au, …).
create or replace function private.normalise_domain(value text) returns text
language plpgsql immutable parallel safe set search_path = ''
as $$
declare
  host text := lower(btrim(coalesce(value, '')));
  labels text[];
  n integer;
begin
  host := regexp_replace(host, '^[a-z][a-z0-9+.-]*://', '');
  host := regexp_replace(host, '[/?#].*$', '');
  host := regexp_replace(host, '^[^@]*@', '');
  host := regexp_replace(host, ':\d+$', '');
  host := regexp_replace(host, '\.$', '');
  if host !~ '^[a-z0-9-]+(\.[a-z0-9-]+)+$' or host ~ '^[0-9.]+$' or char_length(host) > 253 then
    return null;
  end if;
  labels := string_to_array(host, '.');
  n := cardinality(labels);
  if labels[n] !~ '^[a-z]{2,24}$' and labels[n] !~ '^xn--' then
    return null;
  end if;
  if n >= 3 and (labels[n - 1] || '.' || labels[n]) in (
    'co.uk', 'org.uk', 'ac.uk', 'gov.uk', 'me.uk', 'ltd.uk', 'plc.uk', 'com.au', 'net.au', 'org.au',
    'co.nz', 'org.nz', 'co.za', 'com.br', 'com.mx', 'com.ar', 'com.co', 'co.jp', 'ne.jp', 'co.in',
    'co.kr', 'com.cn', 'com.tw', 'com.hk', 'com.sg', 'com.my', 'com.ph', 'com.tr', 'co.il', 'com.es',
    'gc.ca', 'qc.ca', 'on.ca', 'bc.ca', 'ab.ca'
  ) then
    return labels[n - 2] || '.' || labels[n - 1] || '.' || labels[n];
  end if;
  return labels[n - 1] || '.' || labels[n];
end
$$;

-- Social handles without "@" and case.
create or replace function private.normalise_handle(value text) returns text
language sql immutable parallel safe set search_path = ''
as $$
  select case when h ~ '^[a-z0-9_.]{2,30}$' then h end
  from (select lower(regexp_replace(btrim(coalesce(value, '')), '^@+', '')) as h) x
$$;

-- Every identifier in a free-text contact field ("Call (303) 555-0147 or mail Deals@Gmail.com, IG
-- @GreenDeals, www.greendeals.co.uk/shop").
create or replace function private.extract_identifiers(value text) returns table (kind text, value text)
language sql immutable parallel safe set search_path = ''
as $$
  with t as (select coalesce(extract_identifiers.value, '') as txt)
  select distinct x.kind, x.value from (
    select 'email' as kind, private.normalise_email(m[1]) as value
    from t, regexp_matches(t.txt, '([A-Za-z0-9._%+''-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+)', 'g') as m
    union all
    select 'phone', private.normalise_phone(m[1])
    from t, regexp_matches(t.txt, '((\+|\m)[0-9][0-9 ().-]{5,}[0-9](\s*(ext\.?|x)\s*[0-9]{1,6})?)', 'gi') as m
    union all
    select 'domain', private.normalise_domain(m[1])
    from t, regexp_matches(t.txt, '(?:^|[\s,;(])((?:[a-z][a-z0-9+.-]*://)?(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,24}(?::[0-9]+)?(?:/[^\s,;)]*)?)(?=$|[\s,;).!?])', 'gi') as m
    where m[1] !~ '@'
    union all
    select 'handle', private.normalise_handle(m[1])
    from t, regexp_matches(t.txt, '(?:^|[\s,;(])@([A-Za-z0-9_.]{2,30})', 'g') as m
  ) x
  where x.value is not null
$$;

-- What the reader typed, as identifiers (a whole phone, email, website or @handle).
create or replace function private.query_identifiers(query text) returns table (kind text, value text)
language sql immutable parallel safe set search_path = ''
as $$
  select distinct x.kind, x.value from (
    select 'phone' as kind, private.normalise_phone(query) as value
    union all select 'email', private.normalise_email(query)
    union all select 'domain', private.normalise_domain(query) where query !~ '@' and query ~ '\.'
    union all select 'handle', private.normalise_handle(query) where btrim(query) ~ '^@'
    union all select e.kind, e.value from private.extract_identifiers(query) e
  ) x
  where x.value is not null
$$;

-- A lexeme as a tsquery of itself, exactly: not parsed again, not a prefix (a tsquery literal quotes
-- it; backslashes and quotes are escaped).
create or replace function private.exact_lexeme(lexeme text) returns tsquery
language sql immutable strict parallel safe set search_path = ''
as $$
  select ('''' || replace(replace(lexeme, '\', '\\'), '''', '''''') || '''')::tsquery
$$;
revoke all on function private.exact_lexeme(text) from public;

-- Whether a published report shows readers a word (a tsquery of it): in its searchable text, and not
-- only inside a masked span (decision 209). (plpgsql: the masked text's functions are in
-- reports_masks.sql, applied after this file.)
create or replace function private.scammer_report_word_shown(word tsquery) returns boolean
language plpgsql stable security definer set search_path = ''
as $$
begin
  return exists (
    select 1 from public.scammer_reports r
    where r.status = 'published'
      -- The words' index holds the periods too (decision 269), which no word matches.
      and (to_tsvector('simple'::regconfig, r.search_text) || private.scammer_report_periods(r.reviewed_at)) @@ word
      and (not private.scammer_report_search_masked(r.id)
        or to_tsvector('simple'::regconfig, private.scammer_report_reader_search_text(r)) @@ word));
end
$$;
revoke all on function private.scammer_report_word_shown(tsquery) from public;

-- The search vocabulary (decision 123) holds the words readers can see in published reports only
-- (decisions 200, 209): a rejected, withdrawn or deleted report, or a masked span, leaves no word behind,
-- unless a published report shows it. Words of letters (3 or more) of the searchable text; numbers,
-- emails and websites are matched exactly or by identifier, never by a close spelling. Run after the
-- change, so "published" and the masks are as they now stand. (plpgsql: the masked text's functions are
-- in reports_masks.sql, applied after this file.)
create or replace function private.forget_scammer_report_words(old_text text) returns void
language plpgsql volatile security definer set search_path = ''
as $$
begin
  delete from private.scammer_report_words w
  where w.word in (select t.lexeme from unnest(to_tsvector('simple'::regconfig, old_text)) t)
    and not private.scammer_report_word_shown(plainto_tsquery('simple'::regconfig, w.word));
  -- The words that start with a letter, for completing a typed word (decision 251), the same way.
  delete from private.scammer_report_lexemes l
  where l.lexeme in (select t.lexeme collate "C" from unnest(to_tsvector('simple'::regconfig, old_text)) t)
    and not private.scammer_report_word_shown(private.exact_lexeme(l.lexeme));
end
$$;
revoke all on function private.forget_scammer_report_words(text) from public;

-- A published report's words as readers see them (masked spans cut out), into the vocabulary.
create or replace function private.remember_scammer_report_words(r public.scammer_reports) returns void
language plpgsql volatile security definer set search_path = ''
as $$
begin
  if r.status = 'published' then
    insert into private.scammer_report_words (word)
    select distinct t.lexeme
    from unnest(to_tsvector('simple'::regconfig, private.scammer_report_reader_search_text(r))) t
    where t.lexeme ~ '^[[:alpha:]]{3,100}$'
    on conflict do nothing;
    insert into private.scammer_report_lexemes (lexeme)
    select distinct t.lexeme
    from unnest(to_tsvector('simple'::regconfig, private.scammer_report_reader_search_text(r))) t
    where t.lexeme ~ '^[[:alpha:]]'
    on conflict do nothing;
  end if;
end
$$;
revoke all on function private.remember_scammer_report_words(public.scammer_reports) from public;

-- A report's contact identifiers, from the contact details as readers see them: a masked span's phone,
-- email, website or handle is not indexed, so neither search, linked reports nor watch alerts match it
-- (decision 209).
create or replace function private.index_scammer_report_contact(r public.scammer_reports) returns void
language plpgsql volatile security definer set search_path = ''
as $$
begin
  delete from private.scammer_report_identifiers i where i.report_id = r.id;
  insert into private.scammer_report_identifiers (report_id, kind, value)
  select r.id, e.kind, e.value
  from private.extract_identifiers(private.scammer_report_masked_text(r.id, 'contact_info', r.contact_info, ' ')) e
  where char_length(e.value) between 2 and 254
  on conflict do nothing;
end
$$;
revoke all on function private.index_scammer_report_contact(public.scammer_reports) from public;

-- Kept on every write of a report (whoever writes): the vocabulary, and the contact identifiers.
create or replace function private.index_scammer_report_identifiers() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if tg_op = 'DELETE' then
    if old.status = 'published' then
      perform private.forget_scammer_report_words(old.search_text);
    end if;
    return null;
  end if;
  if tg_op = 'UPDATE' and old.status = 'published'
    and (new.status <> 'published' or new.search_text is distinct from old.search_text) then
    perform private.forget_scammer_report_words(old.search_text);
  end if;
  if new.status = 'published' and (tg_op = 'INSERT' or old.status <> 'published'
    or new.search_text is distinct from old.search_text) then
    perform private.remember_scammer_report_words(new);
  end if;
  if tg_op = 'UPDATE' and new.contact_info is not distinct from old.contact_info then
    return null;
  end if;
  perform private.index_scammer_report_contact(new);
  return null;
end
$$;
revoke all on function private.index_scammer_report_identifiers() from public;

create or replace trigger index_identifiers after insert or update or delete on public.scammer_reports
  for each row execute function private.index_scammer_report_identifiers();

-- "Linked reports" (product §scammer-database): other published reports sharing an identifier with this
-- one, and which identifier links them. Only identifiers readers may see on both reports (contact
-- details not redacted on either), only for members with access.
create or replace function public.linked_scammer_reports(report_id uuid)
returns table (id uuid, scammer_name text, business_name text, reviewed_at timestamptz, kind text, value text)
language plpgsql stable security definer set search_path = ''
as $$
begin
  if not public.has_scammer_access() then
    -- A brand's representative reads their brand's reports free (decision 201), not the others.
    if exists (
      select 1 from public.scammer_reports r
      where r.id = linked_scammer_reports.report_id and private.brands_is_representative(r.brand_id)
    ) then
      return;
    end if;
    raise exception using errcode = 'insufficient_privilege',
      message = 'The Scammer Network needs a subscription, an active trial or an admin account.';
  end if;
  return query
    -- As readers see them: masked spans replaced (decisions 197, 209).
    select o.id, private.scammer_report_masked(o.id, 'scammer_name', o.scammer_name),
      case when 'business_name' = any(o.redacted_fields) then null
        else private.scammer_report_masked(o.id, 'business_name', o.business_name) end,
      o.reviewed_at, oi.kind, oi.value
    from public.scammer_reports r
    join private.scammer_report_identifiers ri on ri.report_id = r.id
    join private.scammer_report_identifiers oi on oi.kind = ri.kind and oi.value = ri.value and oi.report_id <> r.id
    join public.scammer_reports o on o.id = oi.report_id
    where r.id = linked_scammer_reports.report_id
      and r.status = 'published' and o.status = 'published'
      and r.merged_into is null and o.merged_into is null
      and not ('contact_info' = any(r.redacted_fields)) and not ('contact_info' = any(o.redacted_fields))
    order by o.reviewed_at desc, o.id, oi.kind, oi.value
    limit 50;
end
$$;
revoke all on function public.linked_scammer_reports(uuid) from public;
grant execute on function public.linked_scammer_reports(uuid) to authenticated, service_role;
comment on function public.linked_scammer_reports(uuid) is
  'Members with access: published reports sharing a contact identifier with this one, and the identifier.';

-- Reports that exist already get their vocabulary and identifiers in reports_masks.sql (applied after
-- this file: they come from the masked text).

-- For the database's own functions (the trigger and the readers' functions run as their owner).
revoke all on function private.normalise_phone(text) from public;
revoke all on function private.normalise_email(text) from public;
revoke all on function private.normalise_domain(text) from public;
revoke all on function private.normalise_handle(text) from public;
revoke all on function private.extract_identifiers(text) from public;
revoke all on function private.query_identifiers(text) from public;
