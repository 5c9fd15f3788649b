import { useCallback, useState } from 'react';
import { toast } from '#web/components/ui/use-toast.ts';
import { logSecurityEvent } from '#web/lib/security/security-events.ts';
import { checkAuthRateLimit } from '../api/check-auth-rate-limit.ts';
import { authErrorText } from '../auth-error-text.ts';
import { AUTH_RATE_LIMITS, type AuthAction } from '../rate-limits.ts';

/**
 * The rate-limited actions of product §rpc, and those the auth server limits itself: the password
 * update, the sign-up code and a new confirmation mail.
 */
export type AuthFormAction = AuthAction | 'auth_update_password' | 'auth_confirm_code' | 'auth_resend';

/**
 * The last failure's toast, whichever auth form showed it (the dialog may have been closed and opened
 * again since): a later attempt's outcome replaces it, so a successful sign-in does not leave the
 * previous attempt's "Error" on screen (issue 34).
 */
let lastFailure: { dismiss: () => void } | null = null;

function dismissLastFailure(): void {
  lastFailure?.dismiss();
  lastFailure = null;
}

/**
 * One auth form submission (product §auth-screen, §auth-rules): a busy flag while it runs, the server's
 * rate-limit check first, and on failure the destructive "Error" toast with the message plus a
 * medium-severity security event; the previous failure's toast goes when the next attempt ends.
 * Resolves whether the action succeeded.
 */
export function useAuthAction(): {
  busy: boolean;
  run: (action: AuthFormAction, work: () => Promise<void>) => Promise<boolean>;
} {
  const [busy, setBusy] = useState(false);
  const run = useCallback(async (action: AuthFormAction, work: () => Promise<void>) => {
    setBusy(true);
    try {
      if (action in AUTH_RATE_LIMITS) await checkAuthRateLimit(action as AuthAction);
      await work();
      dismissLastFailure();
      return true;
    } catch (error) {
      const message = authErrorText(error);
      dismissLastFailure();
      lastFailure = toast({ variant: 'destructive', title: 'Error', description: message });
      void logSecurityEvent({
        type: 'auth_error',
        category: 'authentication',
        action,
        description: message,
        riskLevel: 'medium',
      });
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, run };
}
