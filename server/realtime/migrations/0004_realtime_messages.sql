-- Realtime Authorization and broadcast from the database (issue 24, decision 147), as Supabase
-- Realtime has them: `realtime.messages` is the table whose row-level security policies decide who
-- may read (SELECT) and write (INSERT) broadcast and presence on a private channel, with
-- `realtime.topic()` naming the channel inside a policy; a row inserted into it with an event
-- (`realtime.send`, `realtime.broadcast_changes`) is broadcast to the subscribers of its topic.
-- The functions and the delivery trigger live in definitions/messages.sql and authorize.sql.
--
-- Until now `realtime.messages` held the cross-process messages too large for a NOTIFY payload
-- (decision 054); that table keeps its rows and its job under the name `realtime.bus_messages`.

alter table realtime.messages rename to bus_messages;
alter sequence realtime.messages_id_seq rename to bus_messages_id_seq;
alter index realtime.messages_pkey rename to bus_messages_pkey;

-- Supabase's columns and defaults (priv/repo/tenant_schema/realtime/tables/messages.sql). Not
-- partitioned: the heartbeat deletes rows older than a minute (definitions/heartbeat.sql), which
-- the index on inserted_at keeps cheap; authorization probes are never committed.
create table realtime.messages (
  topic text not null,
  extension text not null constraint messages_extension check (extension in ('broadcast', 'presence')),
  payload jsonb,
  event text,
  private boolean default false,
  updated_at timestamp not null default now(),
  inserted_at timestamp not null default now(),
  id uuid not null default gen_random_uuid(),
  binary_payload bytea,
  constraint messages_payload_exclusive check (payload is null or binary_payload is null),
  constraint messages_pkey primary key (id, inserted_at)
);

create index messages_inserted_at_idx on realtime.messages (inserted_at);

-- No policy ships here: without one, nobody but a role that bypasses row-level security
-- (service_role) may read or write a private channel. The product adds its own
-- (supabase/definitions/realtime_policies.sql).
alter table realtime.messages enable row level security;

-- As on Supabase: the API roles reach realtime.messages (policies decide which rows) and the
-- functions a policy or a trigger calls; every other table and function of the schema stays
-- revoked from them. The data API does not expose this schema.
grant usage on schema realtime to anon, authenticated, service_role;
grant select, insert, update on realtime.messages to anon, authenticated, service_role;
