-- Issue 32 parts 3 and 4 (decisions 201–203): corrections to a published report are recorded, a
-- withdrawn report keeps a dated notice, and a watcher is alerted at most once per report. Functions,
-- triggers and views: definitions/reports_read_corrections.sql and reports_watches.sql.

-- When a published report was last taken down (published → under review), set by a trigger only: a
-- report that is no longer published but has this date shows readers "withdrawn on DATE after review"
-- in place of its content (decision 202).
alter table public.scammer_reports add column if not exists withdrawn_at timestamptz;

-- Changes to what readers see of a report once it has been published (decision 201): its reviewers'
-- summary, its masking (whole fields today; span masks add rows through
-- private.record_scammer_report_change(report, 'masking')), its approved evidence. Kinds only, never
-- the text before or after (the audit log keeps that for admins). Readers read it through
-- public.scammer_report_updates.
create table if not exists private.scammer_report_changes (
  id bigint generated always as identity primary key,
  report_id uuid not null references public.scammer_reports (id) on delete cascade,
  kind text not null constraint scammer_report_changes_kind_check check (kind in ('summary', 'masking', 'evidence')),
  changed_at timestamptz not null default now()
);
create index if not exists scammer_report_changes_report_idx
  on private.scammer_report_changes (report_id, changed_at desc);

-- Which watcher was alerted about which report, and whether they were told of its withdrawal
-- (decision 203): at most one alert per watcher and report, republication included.
create table if not exists private.scammer_watch_alerts (
  report_id uuid not null references public.scammer_reports (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  alerted_at timestamptz not null default now(),
  withdrawal_told_at timestamptz,
  primary key (report_id, user_id)
);
create index if not exists scammer_watch_alerts_user_idx on private.scammer_watch_alerts (user_id);

-- Watchers alerted before this table existed: their alert is in their notifications.
insert into private.scammer_watch_alerts (report_id, user_id, alerted_at)
select distinct on (r.id, n.user_id) r.id, n.user_id, n.created_at
from public.notifications n
join public.scammer_reports r
  on r.id::text = substring(n.link from '^/scammer-database/([0-9a-f-]{36})$')
where n.kind = 'scammer_watch.match'
order by r.id, n.user_id, n.created_at
on conflict do nothing;
