-- The advisory rate-limit procedures apply the server's limits, not the caller's
-- (docs/decisions/094-write-quotas.md), and visitors may log only low-risk security events.
--
-- progressive_rate_limit_check and global_rate_limit_check keep spec §7's arguments (the web app and
-- supabase-js send them by name) but the limits come from private.rate_limit_rules: a caller passing
-- base_max_attempts 10000 gets the same answer as one passing 5. Unknown action names fall back to the
-- '*' rule. Operators tune the rules with plain SQL (supabase/README.md).
--
-- Redefined here: public.progressive_rate_limit_check, public.global_rate_limit_check,
-- public.log_security_event, private.guard_security_event.

create table if not exists private.rate_limit_rules (
  action_type text primary key
    constraint rate_limit_rules_action_type_format check (action_type = '*' or action_type ~ '^[A-Za-z][A-Za-z0-9_.:-]{0,63}$'),
  -- Attempts per window of the subject (the member, or the visitor's address when signed out).
  max_attempts integer not null constraint rate_limit_rules_max_attempts_range check (max_attempts between 1 and 10000),
  window_minutes integer not null constraint rate_limit_rules_window_minutes_range check (window_minutes between 1 and 1440),
  -- global_rate_limit_check: attempts per window of one client address, whoever is signed in.
  max_ip_attempts integer not null constraint rate_limit_rules_max_ip_attempts_range check (max_ip_attempts between 1 and 1000000),
  -- progressive_rate_limit_check: the first wait after a violation (doubling with each further one).
  base_delay_seconds integer not null default 60 constraint rate_limit_rules_base_delay_range check (base_delay_seconds between 1 and 86400),
  updated_at timestamptz not null default now()
);
revoke all on table private.rate_limit_rules from public, anon, authenticated, service_role;

-- Spec §9: sign-up 3, sign-in 5, social 3, reset 2 an hour (§8's waits: 60 s, reset 300 s); reports 3
-- per 15 minutes per user and 10 per address. The export's row is rewritten from
-- GDPR_EXPORT_LIMIT_PER_HOUR when the server starts.
insert into private.rate_limit_rules (action_type, max_attempts, window_minutes, max_ip_attempts, base_delay_seconds)
values
  ('auth_signup', 3, 60, 30, 60),
  ('auth_signin', 5, 60, 50, 60),
  ('auth_oauth', 3, 60, 30, 60),
  ('auth_reset', 2, 60, 20, 300),
  ('scammer_report', 3, 15, 10, 60),
  ('functions:gdpr_data_export', 5, 60, 50, 60),
  ('*', 5, 60, 50, 60)
on conflict (action_type) do nothing;

-- The rule for an action: its own row, else the '*' row, else the '*' row's shipped values.
create or replace function private.rate_limit_rule(action text) returns private.rate_limit_rules
language plpgsql stable set search_path = ''
as $$
declare
  v_rule private.rate_limit_rules%rowtype;
begin
  select * into v_rule from private.rate_limit_rules r
  where r.action_type in (action, '*') order by r.action_type = '*' limit 1;
  if not found then
    v_rule := row('*', 5, 60, 50, 60, now())::private.rate_limit_rules;
  end if;
  return v_rule;
end
$$;
revoke all on function private.rate_limit_rule(text) from public;
