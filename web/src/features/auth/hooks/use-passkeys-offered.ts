import { useQuery } from '@tanstack/react-query';
import { authSettingsQueryOptions } from '../api/get-auth-settings.ts';

/**
 * Whether the server offers passkeys (`passkeys_enabled` in /auth/v1/settings, PASSKEY_ENABLED;
 * decision 149) and this browser can make them. False until the settings have answered.
 */
export function usePasskeysOffered(): boolean {
  const { data } = useQuery(authSettingsQueryOptions);
  const enabled =
    typeof data === 'object' &&
    data !== null &&
    (data as { passkeys_enabled?: unknown }).passkeys_enabled === true;
  return enabled && typeof window !== 'undefined' && 'PublicKeyCredential' in window;
}
