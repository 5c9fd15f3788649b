-- Issue 33 parts 2 and 3: privacy by default (decision 193), and what inactivity deletion remembers (decision 192).
--
-- New members start with every optional sharing setting off: "Show activity" and analytics (there is no
-- analytics code; the column stays for the product's data model and the upsert of the eight settings,
-- but nothing offers or reads it). Existing members keep what they chose: rows already saved are not
-- changed, and a member who never saved settings (no row, so the old defaults applied to them) gets a
-- row holding exactly what applied to them until now, so the new defaults for an absent row
-- (definitions/member_profile.sql, the web app) change nothing for them.

alter table public.privacy_settings alter column show_activity set default false;
alter table public.privacy_settings alter column allow_analytics set default false;

-- What applied to members without a row: activity shown. Analytics stays off: nothing ever ran, and a
-- pre-ticked box was not consent. The server's own session: no quota, no trigger refuses it.
insert into public.privacy_settings (user_id, show_activity, allow_analytics)
select p.user_id, true, false
from public.profiles p
join auth.users u on u.id = p.user_id
where not exists (select 1 from public.privacy_settings s where s.user_id = p.user_id)
on conflict (user_id) do nothing;

-- ---------------------------------------------------------------------------------------------------
-- Inactivity deletion (decision 192): whom the daily job warned, and for which stretch of inactivity.
-- `last_active_at` is the member's last activity when warned; a member who returns has a later one,
-- so the warning no longer counts (the job removes it) and a new stretch needs a new warning.
-- Deleted with the account.
-- ---------------------------------------------------------------------------------------------------
create table if not exists private.inactivity_warnings (
  user_id uuid primary key references auth.users (id) on delete cascade,
  last_active_at timestamptz not null,
  warned_at timestamptz not null default now()
);
alter table private.inactivity_warnings enable row level security;
revoke all on table private.inactivity_warnings from public, anon, authenticated, service_role;
