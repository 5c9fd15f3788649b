import { useQuery } from '@tanstack/react-query';
import { authSettingsQueryOptions } from '../api/get-auth-settings.ts';
import { socialProviderOf } from '../social-provider.ts';

/**
 * The social provider the server offers (null: none), once /auth/v1/settings has answered. Without
 * the settings there is no button to offer; email and password still work.
 */
export function useSocialProvider(): { loading: boolean; provider: string | null } {
  const { isPending, data } = useQuery(authSettingsQueryOptions);
  return { loading: isPending, provider: data === undefined ? null : socialProviderOf(data) };
}
