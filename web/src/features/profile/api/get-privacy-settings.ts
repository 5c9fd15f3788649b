import { queryOptions, skipToken } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import { type PrivacySettings, privacySettingsOf } from '../privacy-settings.ts';

/**
 * Product §table-calls, §privacy: the member's single row; a missing row (PGRST116) keeps the defaults. Asked
 * for with maybeSingle, so a member who never saved gets an empty answer rather than PostgREST's not-found
 * error (HTTP 406, which browsers log as a failed request); PGRST116 is still tolerated.
 */
export async function getPrivacySettings(userId: string): Promise<PrivacySettings> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from('privacy_settings')
    .select('*')
    .eq('user_id', userId)
    .maybeSingle();
  if (error && error.code !== 'PGRST116') throw error;
  return privacySettingsOf(error ? null : (data as Record<string, unknown> | null));
}

export const privacySettingsQueryOptions = (userId: string | null) =>
  queryOptions({
    queryKey: ['profile', 'privacy-settings', { userId }],
    queryFn: userId ? () => getPrivacySettings(userId) : skipToken,
  });
