import { useMutation, useQueryClient } from '@tanstack/react-query';
import { loadSupabase } from '#web/lib/supabase.ts';
import type { PrivacySettings } from '../privacy-settings.ts';
import { privacySettingsQueryOptions } from './get-privacy-settings.ts';

/** Product §table-calls: upsert with user_id and the eight settings. */
export async function savePrivacySettings(userId: string, settings: PrivacySettings): Promise<void> {
  const supabase = await loadSupabase();
  const { error } = await supabase.from('privacy_settings').upsert({ user_id: userId, ...settings });
  if (error) throw error;
}

/** Saves the settings; what was saved becomes the cached settings. */
export function useSavePrivacySettings(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: PrivacySettings) => savePrivacySettings(userId, settings),
    onSuccess: (_, settings) =>
      queryClient.setQueryData(privacySettingsQueryOptions(userId).queryKey, settings),
  });
}
