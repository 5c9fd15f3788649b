import { useCallback } from 'react';
import { toast } from '../../../components/ui/use-toast.ts';

interface ScammerNetworkActions {
  /** Subscription, active trial or admin. */
  hasAccess: boolean;
  openScammerNetwork: () => void;
  submitTip: () => void;
}

/**
 * The Scammer Network button and the Submit a Tip button (spec §2 "Top navigation", §4, §8).
 * Signed-in behaviour (access check, trial activation, the report dialog) arrives with accounts;
 * until then everyone is a visitor and gets the sign-in prompts the specification gives.
 */
export function useScammerNetworkActions(signedIn: boolean): ScammerNetworkActions {
  const openScammerNetwork = useCallback(() => {
    if (!signedIn) {
      toast({
        variant: 'destructive',
        title: 'Authentication Required',
        description: 'Please sign in to access the Scammer Network.',
      });
    }
  }, [signedIn]);

  const submitTip = useCallback(() => {
    if (!signedIn) {
      toast({
        variant: 'destructive',
        title: 'Authentication Required',
        description: 'Please sign in to submit a scammer report.',
      });
    }
  }, [signedIn]);

  return { hasAccess: false, openScammerNetwork, submitTip };
}
