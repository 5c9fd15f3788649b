import { useEffect, useRef } from 'react';
import { localActivityStore, startIdleTimer } from '../idle-timer.ts';

/**
 * Signs the member out after `timeoutMs` without activity (product §session; AUTO_SIGN_OUT_MS, 2 hours by
 * default). Runs while there is a session; a new session starts a new timer.
 */
export function useAutoSignOut(options: {
  sessionKey: string | null;
  timeoutMs: number;
  onIdle: () => void;
}) {
  const { sessionKey, timeoutMs } = options;
  const onIdle = useRef(options.onIdle);
  onIdle.current = options.onIdle;

  useEffect(() => {
    if (!sessionKey) return;
    const timer = startIdleTimer({
      session: sessionKey,
      timeoutMs,
      target: window,
      store: localActivityStore(),
      onIdle: () => onIdle.current(),
    });
    return () => timer.stop();
  }, [sessionKey, timeoutMs]);
}
