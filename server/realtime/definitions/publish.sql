-- Cross-process messages (broadcasts and presence diffs between server processes on one database).
-- Every message is kept in realtime.bus_messages for a minute (the heartbeat removes older ones) and
-- announced on `realtime_bus` as `<id> <message>`, or as `<id>` alone when the message would not fit
-- a NOTIFY payload (8000 bytes; the servers then read the row). A process whose listening connection
-- was lost reads the rows it has not seen, so nothing sent meanwhile is lost (decision 172).

create or replace function realtime.publish(p_node text, p_payloads text[]) returns void
language plpgsql
as $$
declare
  v_payload text;
  v_id bigint;
begin
  foreach v_payload in array p_payloads loop
    insert into realtime.bus_messages (body) values (v_payload) returning id into v_id;
    if pg_catalog.octet_length(v_payload) <= 7900 then
      perform pg_catalog.pg_notify('realtime_bus', v_id::text || ' ' || v_payload);
    else
      perform pg_catalog.pg_notify('realtime_bus', v_id::text);
    end if;
  end loop;
end
$$;

revoke all on function realtime.publish(text, text[]) from public;
