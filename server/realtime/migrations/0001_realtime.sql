-- The realtime service's schema (see server/realtime/architecture.md and decisions 050-059): its
-- tables and types. Its functions and triggers live in server/realtime/definitions/, one file each,
-- re-applied whenever they change (decision 089).
--
-- Change capture happens in the database so that every server process sees every change:
--  * the `supabase_realtime` publication says which tables are published (as on Supabase:
--    `alter publication supabase_realtime add table ...`);
--  * a deferred constraint trigger on each published table records each row change in
--    `realtime.changes` at commit time, under one advisory lock, so change ids follow commit order,
--    and wakes the servers with one NOTIFY per transaction (never for rolled-back transactions);
--  * each server process (a row in `realtime.nodes`) reads the changes after its cursor and asks
--    `realtime.apply_changes` which of its subscribers may see them: filters and row-level security
--    are evaluated here, for all subscribers of the process in one round trip.
--
-- Nothing in this schema is reachable by the API roles (anon, authenticated, service_role).
--
-- Until decision 089 this file also created the schema's functions and its event trigger, which
-- definitions/ now creates exactly as they were last defined. A database that applied it then has
-- everything this version creates, so the runner accepts that earlier content as applied:
-- replaces sha256 d99999f553dfeb54e78799d13c60bc297a5e579ae1ac31413001b34dc66e5134

create schema if not exists realtime;
revoke all on schema realtime from public;

do $$
begin
  if not exists (select 1 from pg_catalog.pg_publication where pubname = 'supabase_realtime') then
    create publication supabase_realtime;
  end if;
end
$$;

-- ---------------------------------------------------------------------------------------------------
-- Server processes. Each running server registers itself with a cursor (the last change it read) and
-- a heartbeat; processes that stop beating are removed by the others, with their subscriptions and
-- presences.
-- ---------------------------------------------------------------------------------------------------

create table if not exists realtime.nodes (
  id uuid primary key,
  cursor bigint not null default 0,
  started_at timestamptz not null default now(),
  heartbeat_at timestamptz not null default now()
);

-- ---------------------------------------------------------------------------------------------------
-- Captured row changes, in commit order. Rows are removed once every live process has read them.
-- ---------------------------------------------------------------------------------------------------

create table if not exists realtime.changes (
  id bigint generated always as identity primary key,
  entity oid not null,
  action text not null check (action in ('INSERT', 'UPDATE', 'DELETE')),
  record jsonb,
  old_record jsonb,
  -- The table's replica identity when the change was made ('d'efault, 'f'ull, 'i'ndex, 'n'othing):
  -- which old values an UPDATE or DELETE carries, as logical replication would have logged them.
  replica_identity "char",
  created_at timestamptz not null default clock_timestamp()
);

-- ---------------------------------------------------------------------------------------------------
-- postgres_changes subscriptions: one row per channel binding and published table it matches.
-- `filters` is a list of {column, op, value}; `claims` and `claims_role` are the subscriber's
-- identity, checked against row-level security for every change.
-- ---------------------------------------------------------------------------------------------------

create table if not exists realtime.subscriptions (
  id uuid not null,
  entity oid not null,
  node_id uuid not null references realtime.nodes (id) on delete cascade,
  action text not null check (action in ('*', 'INSERT', 'UPDATE', 'DELETE')),
  filters jsonb not null default '[]',
  claims jsonb not null,
  claims_role text not null,
  created_at timestamptz not null default now(),
  primary key (id, entity)
);

create index if not exists subscriptions_node_entity_idx on realtime.subscriptions (node_id, entity);

-- ---------------------------------------------------------------------------------------------------
-- Presence: who is tracked on which topic, shared by all processes.
-- ---------------------------------------------------------------------------------------------------

create table if not exists realtime.presences (
  ref text primary key,
  node_id uuid not null references realtime.nodes (id) on delete cascade,
  topic text not null,
  key text not null,
  meta jsonb not null,
  created_at timestamptz not null default clock_timestamp()
);

create index if not exists presences_topic_idx on realtime.presences (topic, created_at);
create index if not exists presences_node_idx on realtime.presences (node_id);

-- Cross-process messages too large for a NOTIFY payload (8000 bytes) travel through this table;
-- the NOTIFY then carries only the row's id.
create table if not exists realtime.messages (
  id bigint generated always as identity primary key,
  body text not null,
  created_at timestamptz not null default now()
);

revoke all on all tables in schema realtime from public;

-- The composite types realtime.apply_changes and its stages pass between them
-- (definitions/apply_changes*.sql).
do $$
begin
  if not exists (select 1 from pg_catalog.pg_type where typname = 'delivery' and typnamespace = 'realtime'::regnamespace) then
    create type realtime.delivery as (change_id bigint, payload text, subscription_ids uuid[]);
  end if;
  if not exists (select 1 from pg_catalog.pg_type where typname = 'filter_pass' and typnamespace = 'realtime'::regnamespace) then
    create type realtime.filter_pass as (change_id bigint, subscription_id uuid, ord bigint);
  end if;
  if not exists (select 1 from pg_catalog.pg_type where typname = 'pair' and typnamespace = 'realtime'::regnamespace) then
    create type realtime.pair as (change_id bigint, subscription_id uuid);
  end if;
  if not exists (select 1 from pg_catalog.pg_type where typname = 'identity_group' and typnamespace = 'realtime'::regnamespace) then
    create type realtime.identity_group as (
      gid bigint, entity oid, role text, claims jsonb,
      deletes bigint[], check_ids bigint[], check_records jsonb[]
    );
  end if;
  if not exists (select 1 from pg_catalog.pg_type where typname = 'member' and typnamespace = 'realtime'::regnamespace) then
    create type realtime.member as (subscription_id uuid, gid bigint);
  end if;
  if not exists (select 1 from pg_catalog.pg_type where typname = 'entity_meta' and typnamespace = 'realtime'::regnamespace) then
    create type realtime.entity_meta as (
      entity oid, role text, schema_name text, table_name text, columns jsonb, visible text[],
      all_visible boolean, pk text[], index_identity text[], rls boolean, can_select boolean,
      check_sql text
    );
  end if;
end
$$;
