import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { signOut } from '../api/sign-out.ts';
import { localActivityStore } from '../idle-timer.ts';
import { setAuthState } from '../session-store.ts';

/**
 * Manual sign-out (product §session): clears the session and goes to /, also when the server call fails.
 * The page shows the signed-out state at once rather than after the server answered.
 */
export function useSignOut(): () => Promise<void> {
  const navigate = useNavigate();
  return useCallback(async () => {
    setAuthState({ user: null, sessionKey: null, isAdmin: false });
    await signOut();
    localActivityStore().clear();
    navigate('/');
  }, [navigate]);
}
