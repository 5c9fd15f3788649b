-- Masked spans of a report's free text (issue 32 part 2, decision 197). Table in
-- 20261128600000_report_masks.sql. Reviewers — admins other than the reporter — mask spans by hand,
-- keep or unmask the spans the database proposes (phone numbers, email addresses, street addresses it
-- detects), and an admin may unmask any span again. Every add, decision and removal is audited.
-- Readers never receive a masked character: the readers' view (reports_read.sql) replaces each span
-- that is not 'unmasked' with "[removed by the reviewers]", proposals included. A report cannot be
-- published while a proposal is undecided.

-- The placeholder readers get for a masked span (decision 197).
create or replace function private.scammer_report_mask_placeholder() returns text
language sql immutable parallel safe set search_path = ''
as $$ select '[removed by the reviewers]'::text $$;
revoke all on function private.scammer_report_mask_placeholder() from public;

-- The text of one maskable field of a report row.
create or replace function private.scammer_report_field_text(r public.scammer_reports, field text) returns text
language sql immutable parallel safe set search_path = ''
as $$
  select case field
    when 'scammer_name' then r.scammer_name
    when 'scammer_description' then r.scammer_description
    when 'incident_details' then r.incident_details
    when 'location' then r.location
    when 'business_name' then r.business_name
    when 'contact_info' then r.contact_info
  end
$$;
revoke all on function private.scammer_report_field_text(public.scammer_reports, text) from public;
-- The guard runs as the writing admin.
grant execute on function private.scammer_report_field_text(public.scammer_reports, text) to authenticated, service_role;

-- A field's text with every span not unmasked replaced by `replacement` (spans in characters from 0,
-- end excluded; spans of a field never overlap, the guard sees to it). No access check: for the
-- database's own functions (search, vocabulary, identifiers, watch alerts, notices), never the API.
create or replace function private.scammer_report_masked_text(report uuid, field text, value text, replacement text)
returns text
language plpgsql stable security definer set search_path = ''
as $$
declare
  masked text := value;
  span record;
begin
  for span in
    select m.start_at, m.end_at from public.scammer_report_masks m
    where m.report_id = scammer_report_masked_text.report and m.field = scammer_report_masked_text.field
      and m.state <> 'unmasked' and m.end_at <= char_length(value)
    order by m.start_at desc
  loop
    masked := left(masked, span.start_at) || replacement || substr(masked, span.end_at + 1);
  end loop;
  return masked;
end
$$;
revoke all on function private.scammer_report_masked_text(uuid, text, text, text) from public;

-- A field's text as readers get it: every span not unmasked replaced by the placeholder.
create or replace function private.scammer_report_masked(report uuid, field text, value text) returns text
language plpgsql stable security definer set search_path = ''
as $$
begin
  -- Most reports have no masked span: one index probe.
  if value is null or not exists (
    select 1 from public.scammer_report_masks m
    where m.report_id = scammer_report_masked.report and m.field = scammer_report_masked.field
      and m.state <> 'unmasked'
  ) then
    return value;
  end if;
  -- Called by readers through the readers' view: for any other report it says nothing (where its
  -- masks lie), except to admins and the server.
  if not (
    private.caller_is_privileged() or public.has_role('admin') or exists (
      select 1 from public.scammer_reports r where r.id = scammer_report_masked.report and r.status = 'published'
    )
  ) then
    return null;
  end if;
  return private.scammer_report_masked_text(report, field, value, private.scammer_report_mask_placeholder());
end
$$;
revoke all on function private.scammer_report_masked(uuid, text, text) from public;
grant execute on function private.scammer_report_masked(uuid, text, text) to authenticated, service_role;

-- Whether any span of the report's searchable fields (name, business name, location, contact details)
-- is masked: search, the vocabulary and the contact identifiers then use the masked text only, so a
-- masked word or number never finds the report (reports_read.sql, decision 209).
create or replace function private.scammer_report_search_masked(report uuid) returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (
    select 1 from public.scammer_report_masks m
    where m.report_id = scammer_report_search_masked.report
      and m.field in ('scammer_name', 'business_name', 'location', 'contact_info')
      and m.state <> 'unmasked'
  )
$$;
revoke all on function private.scammer_report_search_masked(uuid) from public;
grant execute on function private.scammer_report_search_masked(uuid) to authenticated, service_role;

-- What readers can search of a report: search_text's twin (name, business name, location, contact
-- details; redacted fields empty; lower-cased) with every masked span cut out (a space, not the
-- placeholder, whose words would find every masked report). For the database's own functions.
create or replace function private.scammer_report_reader_search_text(r public.scammer_reports) returns text
language plpgsql stable security definer set search_path = ''
as $$
begin
  if not private.scammer_report_search_masked(r.id) then
    return r.search_text;
  end if;
  return lower(
    private.scammer_report_masked_text(r.id, 'scammer_name', r.scammer_name, ' ')
    || ' ' || case when 'business_name' = any(r.redacted_fields) then ''
      else coalesce(private.scammer_report_masked_text(r.id, 'business_name', r.business_name, ' '), '') end
    || ' ' || case when 'location' = any(r.redacted_fields) then ''
      else coalesce(private.scammer_report_masked_text(r.id, 'location', r.location, ' '), '') end
    || ' ' || case when 'contact_info' = any(r.redacted_fields) then ''
      else coalesce(private.scammer_report_masked_text(r.id, 'contact_info', r.contact_info, ' '), '') end
  );
end
$$;
revoke all on function private.scammer_report_reader_search_text(public.scammer_reports) from public;

-- Personal data in free text, for proposals (decision 197 lists what these miss and over-match):
-- email addresses; phone numbers (7 to 15 digits with spaces, dots, dashes or brackets between, not
-- an ISO date); street addresses (a house number, one to four words, a street type such as Street,
-- Ave, Road, Lane). Spans in characters from 0, end excluded; none overlapping (emails first).
create or replace function private.detect_personal_data(value text)
returns table (kind text, start_at integer, end_at integer)
language plpgsql immutable parallel safe set search_path = ''
as $$
declare
  patterns constant text[] := array[
    'email', '[[:alnum:]._%+-]+@[[:alnum:]-]+(\.[[:alnum:]-]+)*\.[[:alpha:]]{2,}',
    'phone', '\+?\(?[0-9][0-9 ().-]{5,22}[0-9]',
    'address', '\m[0-9]{1,6}[a-z]?([[:space:]]+[[:alpha:]][[:alpha:].-]*){1,4}[[:space:]]+'
      || '(street|st|avenue|ave|road|rd|boulevard|blvd|lane|ln|drive|dr|court|ct|way|place|pl|terrace|'
      || 'highway|hwy|parkway|pkwy|circle|cir|square|sq|crescent|close|alley|trail|row)\M'
  ];
  i integer;
  pos integer;
  s integer;
  e integer;
  found int4range[] := '{}';
  piece text;
  digits integer;
begin
  if value is null then
    return;
  end if;
  for i in 1 .. array_length(patterns, 1) / 2 loop
    pos := 1;
    loop
      s := regexp_instr(value, patterns[i * 2], pos, 1, 0, 'i');
      exit when s = 0;
      e := regexp_instr(value, patterns[i * 2], pos, 1, 1, 'i');
      pos := e;
      piece := substr(value, s, e - s);
      if patterns[i * 2 - 1] = 'phone' then
        digits := char_length(regexp_replace(piece, '[^0-9]', '', 'g'));
        continue when digits not between 7 and 15
          or piece ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' or piece ~ '^[0-9]{4}\.[0-9]{2}\.[0-9]{2}$';
        -- "(" only when its ")" is in the match too.
        if left(piece, 1) = '(' and position(')' in piece) = 0 then
          s := s + 1;
        end if;
      end if;
      continue when exists (select 1 from unnest(found) f where f && int4range(s, e));
      found := found || int4range(s, e);
      kind := patterns[i * 2 - 1];
      start_at := s - 1;
      end_at := e - 1;
      return next;
    end loop;
  end loop;
end
$$;
revoke all on function private.detect_personal_data(text) from public;

-- Propose a mask for every detected span of the report's text fields, the name and the contact details
-- included (decision 240), that no existing mask of that field (in any state: a reviewer's decision
-- stays) overlaps. Running it again changes nothing.
create or replace function private.propose_scammer_report_masks(report uuid) returns void
language plpgsql security definer set search_path = ''
as $$
declare
  r public.scammer_reports;
  f text;
begin
  select * into r from public.scammer_reports where id = propose_scammer_report_masks.report;
  if not found then
    return;
  end if;
  foreach f in array array['scammer_name', 'scammer_description', 'incident_details', 'location', 'business_name',
    'contact_info'] loop
    insert into public.scammer_report_masks (report_id, field, start_at, end_at, kind, state)
    select r.id, f, d.start_at, d.end_at, d.kind, 'proposed'
    from private.detect_personal_data(private.scammer_report_field_text(r, f)) d
    where not exists (
      select 1 from public.scammer_report_masks m
      where m.report_id = r.id and m.field = f
        and int4range(m.start_at, m.end_at) && int4range(d.start_at, d.end_at)
    );
  end loop;
end
$$;
revoke all on function private.propose_scammer_report_masks(uuid) from public;

-- Proposals follow the text: on submission, when a report enters review, and when a field's text
-- changes (only the server's roles can change it: that field's masks go, its spans are proposed anew).
create or replace function private.scammer_report_masks_follow_text() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  f text;
  changed boolean := false;
begin
  if tg_op = 'INSERT' then
    -- The server's own roles may insert a report already reviewed (fixtures, imports): as it is.
    if new.status in ('submitted', 'under_review') then
      perform private.propose_scammer_report_masks(new.id);
    end if;
    return null;
  end if;
  foreach f in array array['scammer_name', 'scammer_description', 'incident_details', 'location', 'business_name',
    'contact_info'] loop
    if private.scammer_report_field_text(new, f) is distinct from private.scammer_report_field_text(old, f) then
      delete from public.scammer_report_masks m where m.report_id = new.id and m.field = f;
      changed := true;
    end if;
  end loop;
  if changed or (new.status = 'under_review' and old.status = 'submitted') then
    perform private.propose_scammer_report_masks(new.id);
  end if;
  return null;
end
$$;
revoke all on function private.scammer_report_masks_follow_text() from public;

create or replace trigger masks_follow_text after insert or update on public.scammer_reports
  for each row execute function private.scammer_report_masks_follow_text();

-- Whether the caller reviews this report: an admin who did not file it (decision 195).
create or replace function private.scammer_report_maskable(report uuid) returns boolean
language sql stable security definer set search_path = ''
as $$
  select public.has_role('admin') and exists (
    select 1 from public.scammer_reports r
    where r.id = scammer_report_maskable.report and r.reporter_user_id is distinct from auth.uid()
  )
$$;
revoke all on function private.scammer_report_maskable(uuid) from public;
grant execute on function private.scammer_report_maskable(uuid) to authenticated, service_role;

drop policy if exists "scammer_report_masks: reviewers read" on public.scammer_report_masks;
create policy "scammer_report_masks: reviewers read" on public.scammer_report_masks
  for select to authenticated using ((select private.scammer_report_maskable(report_id)));
drop policy if exists "scammer_report_masks: reviewers mask" on public.scammer_report_masks;
create policy "scammer_report_masks: reviewers mask" on public.scammer_report_masks
  for insert to authenticated with check ((select private.scammer_report_maskable(report_id)));
drop policy if exists "scammer_report_masks: reviewers decide" on public.scammer_report_masks;
create policy "scammer_report_masks: reviewers decide" on public.scammer_report_masks
  for update to authenticated
  using ((select private.scammer_report_maskable(report_id)))
  with check ((select private.scammer_report_maskable(report_id)));
drop policy if exists "scammer_report_masks: reviewers remove" on public.scammer_report_masks;
create policy "scammer_report_masks: reviewers remove" on public.scammer_report_masks
  for delete to authenticated using ((select private.scammer_report_maskable(report_id)));

-- The rules of a span, for every writer: inside the field's text, never overlapping another masked or
-- proposed span of the field. People (not the database's own proposals) mask by hand, decide, and
-- never on a report they filed; a span never moves.
create or replace function private.guard_scammer_report_mask() returns trigger
language plpgsql set search_path = ''
as $$
declare
  privileged boolean := private.is_privileged();
  -- The server's own roles, also seen inside a security-definer function (decision 195).
  caller_privileged boolean := private.is_privileged() and private.caller_is_privileged();
  -- The database's own proposals: propose_scammer_report_masks runs as its owner, for any caller.
  proposing boolean := false;
  r public.scammer_reports;
  value text;
begin
  if tg_op = 'DELETE' then
    -- A report's deletion removes its masks (privileged: the cascade runs as the table's owner).
    if not privileged and not private.scammer_report_maskable(old.report_id) then
      raise exception using errcode = 'insufficient_privilege', constraint = 'scammer_reports_not_own_review',
        message = 'You filed this report: another admin has to review, redact and publish it.';
    end if;
    return old;
  end if;
  proposing := tg_op = 'INSERT' and privileged and new.state = 'proposed' and new.kind <> 'manual';
  select * into r from public.scammer_reports where id = new.report_id;
  if not caller_privileged and not proposing then
    if not public.has_role('admin') then
      raise exception using errcode = 'insufficient_privilege', message = 'Only admins mask reports.';
    end if;
    if r.reporter_user_id = auth.uid() then
      raise exception using errcode = 'insufficient_privilege', constraint = 'scammer_reports_not_own_review',
        message = 'You filed this report: another admin has to review, redact and publish it.';
    end if;
    if tg_op = 'INSERT' then
      -- A reviewer's own mask is decided as it is made; proposals are the database's.
      new.kind := 'manual';
      new.state := 'masked';
      new.created_by := auth.uid();
      new.created_at := now();
      new.decided_by := auth.uid();
      new.decided_at := now();
    else
      if new.report_id is distinct from old.report_id or new.field is distinct from old.field
        or new.start_at is distinct from old.start_at or new.end_at is distinct from old.end_at
        or new.kind is distinct from old.kind or new.created_by is distinct from old.created_by
        or new.created_at is distinct from old.created_at then
        raise exception using errcode = 'check_violation', constraint = 'scammer_report_masks_span_fixed',
          message = 'A masked span cannot be moved: unmask it and mask the new span.';
      end if;
      if new.state = 'proposed' and old.state <> 'proposed' then
        raise exception using errcode = 'check_violation', constraint = 'scammer_report_masks_decided',
          message = 'Keep or unmask the span: a decided span cannot become a proposal again.';
      end if;
      if new.state is distinct from old.state then
        new.decided_by := auth.uid();
        new.decided_at := now();
      else
        new.decided_by := old.decided_by;
        new.decided_at := old.decided_at;
      end if;
    end if;
  end if;
  if r.id is null then
    return new; -- the foreign key refuses it
  end if;
  value := private.scammer_report_field_text(r, new.field);
  if value is null or new.end_at > char_length(value) then
    raise exception using errcode = 'check_violation', constraint = 'scammer_report_masks_within_text',
      column = 'end_at',
      message = 'The span lies outside the text of this field: choose characters within it.';
  end if;
  if new.state <> 'unmasked' then
    -- One writer of a report's masks at a time, so two overlapping spans cannot both pass.
    perform pg_advisory_xact_lock(hashtextextended('scammer_report_masks:' || new.report_id::text, 0));
    if exists (
      select 1 from public.scammer_report_masks m
      where m.report_id = new.report_id and m.field = new.field and m.id <> new.id and m.state <> 'unmasked'
        and int4range(m.start_at, m.end_at) && int4range(new.start_at, new.end_at)
    ) then
      raise exception using errcode = 'check_violation', constraint = 'scammer_report_masks_no_overlap',
        column = 'start_at',
        message = 'This span overlaps a span already masked in this field: unmask that one or choose other characters.';
    end if;
  end if;
  return new;
end
$$;
revoke all on function private.guard_scammer_report_mask() from public;

create or replace trigger guard_scammer_report_mask before insert or update or delete on public.scammer_report_masks
  for each row execute function private.guard_scammer_report_mask();

-- Every mask added, decided or removed, in the audit log (who, before, after).
create or replace trigger audit after insert or update or delete on public.scammer_report_masks
  for each row execute function private.audit_row_change();

-- Publishing needs every proposal decided: a reviewer has kept or unmasked each detected span. For
-- every person's path (data API, SQL as authenticated, a definer function they call); the server's
-- own roles are exempt like decision 195's rules (fixtures, imports).
create or replace function private.guard_scammer_report_masks_decided() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if new.status = 'published' and old.status is distinct from 'published'
    and not private.caller_is_privileged()
    and exists (select 1 from public.scammer_report_masks m where m.report_id = new.id and m.state = 'proposed') then
    raise exception using errcode = 'check_violation', constraint = 'scammer_reports_masks_undecided',
      message = 'Keep or unmask each proposed mask before publishing: nobody has checked that personal data yet.';
  end if;
  return new;
end
$$;
revoke all on function private.guard_scammer_report_masks_decided() from public;

create or replace trigger guard_scammer_report_masks_decided before update of status on public.scammer_reports
  for each row execute function private.guard_scammer_report_masks_decided();

-- Masks of the searchable fields change what readers can search: the vocabulary loses the words now
-- masked (unless a report shows them elsewhere) and gains those unmasked; a contact-details mask
-- re-derives the report's identifiers from the masked text, so phone search, linked reports and watch
-- alerts never match a masked number (decision 209).
create or replace function private.scammer_report_masks_searchable() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  m public.scammer_report_masks := case when tg_op = 'DELETE' then old else new end;
  r public.scammer_reports;
begin
  if m.field not in ('scammer_name', 'business_name', 'location', 'contact_info') then
    return null;
  end if;
  select * into r from public.scammer_reports where id = m.report_id;
  if not found then
    return null; -- the report is being deleted: its own trigger forgets its words
  end if;
  perform private.forget_scammer_report_words(r.search_text);
  perform private.remember_scammer_report_words(r);
  if m.field = 'contact_info' then
    perform private.index_scammer_report_contact(r);
  end if;
  return null;
end
$$;
revoke all on function private.scammer_report_masks_searchable() from public;

create or replace trigger masks_searchable after insert or update or delete on public.scammer_report_masks
  for each row execute function private.scammer_report_masks_searchable();

-- Reports that exist already (run with every definition, so safe to run again): the vocabulary holds
-- the words readers can see in published reports and nothing else (decisions 200, 209), the
-- identifiers come from the contact details as readers see them.
delete from private.scammer_report_words w
where not private.scammer_report_word_shown(plainto_tsquery('simple'::regconfig, w.word));
insert into private.scammer_report_words (word)
select distinct t.lexeme
from public.scammer_reports r, unnest(to_tsvector('simple'::regconfig, private.scammer_report_reader_search_text(r))) t
where r.status = 'published' and t.lexeme ~ '^[[:alpha:]]{3,100}$'
on conflict do nothing;
-- The same for the words that complete a typed word (decision 251).
delete from private.scammer_report_lexemes l
where not private.scammer_report_word_shown(private.exact_lexeme(l.lexeme));
insert into private.scammer_report_lexemes (lexeme)
select distinct t.lexeme
from public.scammer_reports r, unnest(to_tsvector('simple'::regconfig, private.scammer_report_reader_search_text(r))) t
where r.status = 'published' and t.lexeme ~ '^[[:alpha:]]'
on conflict do nothing;
delete from private.scammer_report_identifiers i
using public.scammer_reports r
where r.id = i.report_id and exists (
    select 1 from public.scammer_report_masks m
    where m.report_id = r.id and m.field = 'contact_info' and m.state <> 'unmasked'
  )
  and (i.kind, i.value) not in (
    select e.kind, e.value
    from private.extract_identifiers(private.scammer_report_masked_text(r.id, 'contact_info', r.contact_info, ' ')) e
  );
insert into private.scammer_report_identifiers (report_id, kind, value)
select r.id, e.kind, e.value
from public.scammer_reports r,
  private.extract_identifiers(private.scammer_report_masked_text(r.id, 'contact_info', r.contact_info, ' ')) e
where char_length(e.value) between 2 and 254
on conflict do nothing;

-- Reports waiting for review get the proposals of every field, the name and the contact details
-- included (decision 240); running it again changes nothing.
select private.propose_scammer_report_masks(r.id)
from public.scammer_reports r
where r.status in ('submitted', 'under_review');
