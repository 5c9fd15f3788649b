-- The reporter confirms their report is true to the best of their knowledge (issue 32 part 6,
-- decision 200). A member's new report carries truth_confirmed_at (any value: the database writes
-- the time it received it); nobody but the server's own roles changes it afterwards. The server's roles
-- (fixtures, imports) may insert without it, as they may skip the other reporter rules (decision 195).
create or replace function private.guard_scammer_report_truth() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if private.caller_is_privileged() then
    return new;
  end if;
  if tg_op = 'INSERT' then
    if new.truth_confirmed_at is null then
      raise exception using errcode = 'check_violation', constraint = 'scammer_reports_truth_confirmed',
        column = 'truth_confirmed_at',
        message = 'Confirm that your report is true to the best of your knowledge.';
    end if;
    new.truth_confirmed_at := now();
  else
    new.truth_confirmed_at := old.truth_confirmed_at;
  end if;
  return new;
end
$$;
revoke all on function private.guard_scammer_report_truth() from public;

create or replace trigger verify_truth_confirmed before insert or update on public.scammer_reports
  for each row execute function private.guard_scammer_report_truth();
