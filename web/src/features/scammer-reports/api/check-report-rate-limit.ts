import { loadSupabase } from '#web/lib/supabase.ts';
import { REPORT_RATE_LIMIT } from '../report.ts';

/**
 * product §rpc global_rate_limit_check as the report flow sends it: action_type_param, max_attempts 3,
 * time_window_minutes 15, max_ip_attempts 10. Resolves whether the report may go ahead; a failed check
 * lets it proceed (§report-dialog) — the insert trigger enforces the same limit regardless.
 */
export async function checkReportRateLimit(): Promise<boolean> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase.rpc('global_rate_limit_check', {
    action_type_param: REPORT_RATE_LIMIT.actionType,
    max_attempts: REPORT_RATE_LIMIT.maxAttempts,
    time_window_minutes: REPORT_RATE_LIMIT.timeWindowMinutes,
    max_ip_attempts: REPORT_RATE_LIMIT.maxIpAttempts,
  });
  if (error || typeof data !== 'boolean') return true;
  return data;
}
