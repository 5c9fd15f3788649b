import { useEffect, useState } from 'react';
import { getAuthSettings } from '../api/get-auth-settings.ts';
import { socialProviderOf } from '../social-provider.ts';

/** The social provider the server offers (null: none), once /auth/v1/settings has answered. */
export function useSocialProvider(): { loading: boolean; provider: string | null } {
  const [state, setState] = useState<{ loading: boolean; provider: string | null }>({
    loading: true,
    provider: null,
  });
  useEffect(() => {
    let live = true;
    getAuthSettings()
      .then((settings) => {
        if (live) setState({ loading: false, provider: socialProviderOf(settings) });
      })
      .catch(() => {
        // Without the settings there is no button to offer; email and password still work.
        if (live) setState({ loading: false, provider: null });
      });
    return () => {
      live = false;
    };
  }, []);
  return state;
}
