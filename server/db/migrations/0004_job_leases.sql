-- Scheduled work shared by every server process (decision 106). A job with a lease runs in one process
-- at a time, and at most once per interval across all of them: a process claims the job's row when the
-- last run started at least (almost) one interval ago and no live lease is held, runs, then releases.
-- A process that dies mid-run leaves a lease that expires after its time-to-live, and another takes over.
-- The schema is the server's own: no API role may read or change it.
create schema if not exists jobs;
revoke all on schema jobs from public;

create table if not exists jobs.leases (
  name text primary key,
  holder text not null,
  started_at timestamptz not null,
  expires_at timestamptz not null,
  finished_at timestamptz
);

comment on table jobs.leases is
  'One row per leased job: who holds (or last held) it, when its last run started and finished.';
