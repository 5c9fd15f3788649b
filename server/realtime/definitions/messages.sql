-- Broadcast from the database (issue 24, decision 147), with Supabase Realtime's functions and
-- signatures (priv/repo/tenant_schema/realtime/functions/): `realtime.send` inserts a row into
-- `realtime.messages`; the row's trigger announces it at commit (NOTIFY `realtime_messages`) and every
-- server process delivers it to the subscribers of its topic on that process. A rolled-back
-- transaction announces nothing.

-- The channel topic being authorized, inside a policy on realtime.messages.
create or replace function realtime.topic() returns text
language sql stable
as $$
  select nullif(current_setting('realtime.topic', true), '')::text;
$$;

grant execute on function realtime.topic() to public;

-- Supabase's realtime.send: a failure (no INSERT policy for the caller, ...) is a warning, never an
-- error of the caller's transaction. The payload gets an `id` unless it has one.
create or replace function realtime.send(payload jsonb, event text, topic text, private boolean default true)
returns void
language plpgsql
as $$
declare
  generated_id uuid;
  final_payload jsonb;
begin
  begin
    generated_id := gen_random_uuid();
    if payload ? 'id' then
      final_payload := payload;
    else
      final_payload := jsonb_set(payload, '{id}', to_jsonb(generated_id));
    end if;
    perform set_config('realtime.topic', topic, true);
    insert into realtime.messages (id, payload, event, topic, private, extension)
    values (generated_id, final_payload, event, topic, private, 'broadcast');
  exception
    when others then
      raise warning 'WarnSendingBroadcastMessage: %', sqlerrm;
  end;
end
$$;

grant execute on function realtime.send(jsonb, text, text, boolean) to public;

-- A binary payload (realtime-js receives an ArrayBuffer on protocol 2.0.0).
create or replace function realtime.send_binary(payload bytea, event text, topic text, private boolean default true)
returns void
language plpgsql
as $$
declare
  generated_id uuid;
begin
  begin
    generated_id := gen_random_uuid();
    perform set_config('realtime.topic', topic, true);
    insert into realtime.messages (id, binary_payload, event, topic, private, extension)
    values (generated_id, payload, event, topic, private, 'broadcast');
  exception
    when others then
      raise warning 'WarnSendingBroadcastMessage: %', sqlerrm;
  end;
end
$$;

grant execute on function realtime.send_binary(bytea, text, text, boolean) to public;

-- For row triggers: `{operation, table, schema, record, old_record}` sent on `topic_name`.
create or replace function realtime.broadcast_changes(
  topic_name text,
  event_name text,
  operation text,
  table_name text,
  table_schema text,
  new record,
  old record,
  level text default 'ROW'
) returns void
language plpgsql
as $$
declare
  row_data jsonb := '{}'::jsonb;
begin
  if level = 'STATEMENT' then
    raise exception 'function can only be triggered for each row, not for each statement';
  end if;
  if operation = 'INSERT' or operation = 'UPDATE' or operation = 'DELETE' then
    row_data := jsonb_build_object(
      'old_record', old, 'record', new, 'operation', operation, 'table', table_name, 'schema', table_schema
    );
    perform realtime.send(row_data, event_name, topic_name);
  else
    raise exception 'Unexpected operation type: %', operation;
  end if;
exception
  when others then
    raise exception 'Failed to process the row: %', sqlerrm;
end
$$;

grant execute on function realtime.broadcast_changes(text, text, text, text, text, record, record, text) to public;

-- Announces a broadcast row at commit. The notification is a JSON header line (id, topic, event,
-- private, payload format), a newline, then the payload as stored (JSON text, or base64 for a
-- binary payload) when it fits a NOTIFY payload (8000 bytes); otherwise the header says `stored`
-- and the servers read the row (rows live a minute). Rows without an event (authorization probes)
-- are not messages.
create or replace function realtime.announce_message() returns trigger
language plpgsql
as $$
declare
  v_binary boolean := new.binary_payload is not null;
  v_body text;
  v_header text;
begin
  if new.event is null or new.extension <> 'broadcast' or new.private is null
     or (new.payload is null and not v_binary) then
    return null;
  end if;
  v_body := case when v_binary
    then pg_catalog.translate(pg_catalog.encode(new.binary_payload, 'base64'), E'\n', '')
    else new.payload::text end;
  v_header := pg_catalog.json_build_object(
    'i', new.id, 't', new.topic, 'e', new.event, 'p', new.private,
    'f', case when v_binary then 'binary' else 'json' end
  )::text;
  if pg_catalog.octet_length(v_header) + pg_catalog.octet_length(v_body) > 7900 then
    v_header := pg_catalog.json_build_object('i', new.id, 'stored', true)::text;
    v_body := '';
  end if;
  perform pg_catalog.pg_notify('realtime_messages', v_header || E'\n' || v_body);
  return null;
end
$$;

revoke all on function realtime.announce_message() from public;

create or replace trigger announce_message after insert on realtime.messages
  for each row execute function realtime.announce_message();
