-- Erasure of a member (issue 33, decision 185): what the database holds about a person outside the
-- rows that go with `auth.users` by ON DELETE CASCADE. `private.erase_member` runs in the deleting
-- transaction (server/functions/account-deletion.ts), after the account and everything hanging off it
-- were deleted:
--
-- - the audit log keeps its entries as facts (who did what to which row, and when), with the member
--   replaced by a pseudonym and their personal fields removed (`private.erasure_redact`);
-- - payment webhook events keep what was applied, without the member's ids;
-- - realtime broadcasts waiting for delivery that were for them or name them go.

-- The member's pseudonym: a keyed hash of their id (key: private.keyed_hash_key, readable by no API
-- role) shaped as a uuid, so that it fits `actor_id` and the entries of one erased member stay linked
-- to each other, while nobody without the key can tell whose they were.
create or replace function private.erasure_pseudonym(p_user_id uuid) returns uuid
language sql stable security definer set search_path = ''
as $$
  select (substr(x.h, 1, 8) || '-' || substr(x.h, 9, 4) || '-' || substr(x.h, 13, 4) || '-'
          || substr(x.h, 17, 4) || '-' || substr(x.h, 21, 12))::uuid
  from (
    select encode(sha256(k.key || convert_to('audit-pseudonym:' || p_user_id::text, 'UTF8') || k.key), 'hex') as h
    from private.keyed_hash_key k where k.id
  ) as x
$$;
revoke all on function private.erasure_pseudonym(uuid) from public;

-- A row image (`before`/`after` of an audit entry) without the member: their id becomes the pseudonym;
-- a string naming them (containing any of `p_needles`, lower case, or equal to one given as a JSON
-- string literal: the short identifiers) goes; of the other strings only what states a fact stays —
-- other rows' ids, dates and times, and short codes under a key that names a state or a kind (status,
-- role, category, vote_type, …). Free text (what someone wrote, names, addresses, phone
-- numbers, URLs) goes: it cannot be told apart from the member's own words. Numbers, booleans and
-- nulls stay. A removed value removes its key (or array element): SQL null stands for "removed".
create or replace function private.erasure_redact(
  p_value jsonb, p_key text, p_member text, p_pseudonym text, p_needles text[]
) returns jsonb
language plpgsql immutable set search_path = ''
as $$
declare
  v_text text;
  v_result jsonb;
begin
  case jsonb_typeof(p_value)
    when 'object' then
      select coalesce(jsonb_object_agg(e.key, r.value), '{}'::jsonb) into v_result
      from jsonb_each(p_value) as e
      cross join lateral (
        select private.erasure_redact(e.value, e.key, p_member, p_pseudonym, p_needles) as value
      ) as r
      where r.value is not null;
      return v_result;
    when 'array' then
      select coalesce(jsonb_agg(r.value order by e.n), '[]'::jsonb) into v_result
      from jsonb_array_elements(p_value) with ordinality as e(value, n)
      cross join lateral (
        select private.erasure_redact(e.value, p_key, p_member, p_pseudonym, p_needles) as value
      ) as r
      where r.value is not null;
      return v_result;
    when 'string' then
      v_text := p_value #>> '{}';
      if lower(v_text) = p_member then
        return to_jsonb(p_pseudonym);
      end if;
      if exists (select 1 from unnest(p_needles) as n where strpos(lower(v_text), n) > 0)
        or to_jsonb(lower(btrim(v_text)))::text = any (p_needles) then
        return null;
      end if;
      if v_text ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
        or v_text ~ '^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?)?$'
        or v_text ~ '^\d{2}:\d{2}(:\d{2})?$' then
        return p_value;
      end if;
      if coalesce(p_key, '') ~ '(^|_)(status|state|kind|type|role|category|action|resolution|level|relation|aal|provider)$'
        and v_text ~ '^[A-Za-z][A-Za-z0-9_.-]{0,49}$' then
        return p_value;
      end if;
      return null;
    else
      return p_value;
  end case;
end
$$;
revoke all on function private.erasure_redact(jsonb, text, text, text, text[]) from public;

-- The append-only audit log lets one change through: the rewrite `private.erase_member` makes, with
-- the setting `highgrade.audit_erasure` on in its transaction, keeping each entry's id, time, action
-- and table. Deletions and truncation stay refused for everyone. (No API role holds any privilege on
-- the table; the setting only narrows what its owner's own statements may do.)
create or replace function private.audit_log_append_only() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if tg_op = 'UPDATE'
    and current_setting('highgrade.audit_erasure', true) = 'on'
    and new.pseudonymised_at is not null
    and (new.id, new.at, new.action, new.target_table) is not distinct from (old.id, old.at, old.action, old.target_table)
  then
    return new;
  end if;
  raise exception using errcode = 'insufficient_privilege',
    message = 'The audit log is append-only: its rows cannot be changed or deleted.';
end
$$;
revoke all on function private.audit_log_append_only() from public;

-- Erases what is left of the member once their account was deleted in this transaction. `p_identifiers`
-- are what names them besides their id: their addresses, username, display name. Values of 3 or more
-- characters are searched for inside any text; shorter ones (a display name "Jo") would match most
-- text, so they are searched for as whole values: a JSON string, an entry's target or a broadcast's
-- topic that is exactly the identifier (any case). Entries written by this transaction
-- are all about the member (the deletion's cascades: their rows, as they were) and are attributed to
-- the pseudonym when no actor was recorded: the member asked for the deletion.
create or replace function private.erase_member(p_user_id uuid, p_identifiers text[]) returns integer
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_member text := p_user_id::text;
  v_pseudonym uuid := private.erasure_pseudonym(p_user_id);
  v_needles text[];
  v_short text[];
  v_xid bigint := txid_current() % 4294967296;
  v_rewritten integer;
begin
  select coalesce(array_agg(distinct lower(btrim(i))), '{}') into v_needles
  from unnest(array_append(coalesce(p_identifiers, '{}'), v_member)) as i
  where char_length(btrim(coalesce(i, ''))) >= 3;
  -- The short identifiers, each as the JSON string literal that stands for it in a row image.
  select coalesce(array_agg(distinct to_jsonb(lower(btrim(i)))::text), '{}') into v_short
  from unnest(coalesce(p_identifiers, '{}')) as i
  where char_length(btrim(coalesce(i, ''))) between 1 and 2;

  perform set_config('highgrade.audit_erasure', 'on', true);
  update private.audit_log l set
    actor_id = case
      when l.actor_id = p_user_id then v_pseudonym
      when l.actor_id is null and l.xmin::text::bigint = v_xid then v_pseudonym
      else l.actor_id end,
    target_id = case
      when lower(l.target_id) = v_member then v_pseudonym::text
      when exists (select 1 from unnest(v_needles) as n where strpos(lower(l.target_id), n) > 0) then null
      when to_jsonb(lower(btrim(l.target_id)))::text = any (v_short) then null
      else l.target_id end,
    before = private.erasure_redact(l.before, null, v_member, v_pseudonym::text, v_needles || v_short),
    after = private.erasure_redact(l.after, null, v_member, v_pseudonym::text, v_needles || v_short),
    pseudonymised_at = now()
  where l.actor_id = p_user_id
    or l.xmin::text::bigint = v_xid
    or exists (
      select 1 from unnest(v_needles) as n
      where strpos(lower(coalesce(l.target_id, '') || ' ' || coalesce(l.before::text, '') || ' ' || coalesce(l.after::text, '')), n) > 0
    )
    or to_jsonb(lower(btrim(l.target_id)))::text = any (v_short)
    -- Earlier entries about a row this erasure deleted (an admin's approval of the member's evidence:
    -- the row holds the file's own name, and nothing that links it to the member but the report).
    or l.target_id in (
      select d.target_id from private.audit_log d
      where d.xmin::text::bigint = v_xid and d.action = 'DELETE' and d.target_id is not null
    )
    or exists (
      select 1 from unnest(v_short) as n
      where strpos(lower(coalesce(l.before::text, '') || ' ' || coalesce(l.after::text, '')), n) > 0
    );
  get diagnostics v_rewritten = row_count;
  perform set_config('highgrade.audit_erasure', 'off', true);

  -- Payment webhook events (pruned after 90 days) keep what was applied, without the member's ids.
  update private.stripe_events e
  set summary = coalesce(private.erasure_redact(e.summary, null, v_member, v_pseudonym::text, v_needles || v_short), '{}'::jsonb)
  where exists (select 1 from unnest(v_needles || v_short) as n where strpos(lower(e.summary::text), n) > 0);

  -- Broadcasts not yet delivered (the heartbeat drops them after a minute anyway): theirs, or naming them.
  -- Only Supabase's own columns are read, so this runs on a hosted project too.
  delete from realtime.messages m
  where m.topic = 'user:' || v_member
    or exists (
      select 1 from unnest(v_needles) as n
      where strpos(lower(coalesce(m.topic, '') || ' ' || coalesce(m.payload::text, '')), n) > 0
    )
    or to_jsonb(lower(btrim(m.topic)))::text = any (v_short)
    or exists (select 1 from unnest(v_short) as n where strpos(lower(m.payload::text), n) > 0);
  return v_rewritten;
end
$$;
revoke all on function private.erase_member(uuid, text[]) from public;
