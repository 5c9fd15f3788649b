-- Cross-process messages (broadcasts and presence diffs between server processes on one database).
-- NOTIFY payloads are limited to 8000 bytes: larger messages are stored (realtime.bus_messages) and
-- only their id is sent.

create or replace function realtime.publish(p_node text, p_payloads text[]) returns void
language plpgsql
as $$
declare
  v_payload text;
  v_id bigint;
begin
  foreach v_payload in array p_payloads loop
    if pg_catalog.octet_length(v_payload) <= 7900 then
      perform pg_catalog.pg_notify('realtime_bus', v_payload);
    else
      insert into realtime.bus_messages (body) values (v_payload) returning id into v_id;
      perform pg_catalog.pg_notify(
        'realtime_bus', pg_catalog.json_build_object('n', p_node, 'stored', v_id::text)::text
      );
    end if;
  end loop;
end
$$;

revoke all on function realtime.publish(text, text[]) from public;
