import { loadSupabase } from '#web/lib/supabase.ts';
import { AUTH_RATE_LIMITS, type AuthAction, rateLimitRefusal } from '../rate-limits.ts';

/**
 * The server's rate-limit check before an auth action (product §rpc progressive_rate_limit_check).
 * Throws the §auth-rules "Too many … attempts" message when refused; a failed check lets the action proceed.
 */
export async function checkAuthRateLimit(action: AuthAction): Promise<void> {
  const limit = AUTH_RATE_LIMITS[action];
  let data: unknown = null;
  try {
    const supabase = await loadSupabase();
    const answer = await supabase.rpc('progressive_rate_limit_check', {
      action_type_param: action,
      base_max_attempts: limit.maxAttempts,
      time_window_minutes: limit.windowMinutes,
    });
    data = answer.error ? null : answer.data;
  } catch {
    return;
  }
  const refusal = rateLimitRefusal(action, data);
  if (refusal) throw refusal;
}
