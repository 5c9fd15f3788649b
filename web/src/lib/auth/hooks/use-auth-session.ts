import { useEffect, useRef } from 'react';
import { whenIdle } from '#web/lib/when-idle.ts';
import { onPasswordRecovery, startAuthSession } from '../session.ts';

/**
 * Starts following the session once the first render is done and the browser is idle, so
 * supabase-js stays out of the first render's JavaScript (decision 061). Mount once, in the layout.
 */
export function useAuthSession(options: { onPasswordRecovery: () => void }): void {
  const handler = useRef(options.onPasswordRecovery);
  handler.current = options.onPasswordRecovery;

  useEffect(() => onPasswordRecovery(() => handler.current()), []);

  useEffect(
    () =>
      whenIdle(() => {
        void startAuthSession();
      }),
    [],
  );
}
