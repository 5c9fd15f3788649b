import { useCallback } from 'react';
import { toast } from '../../../components/ui/use-toast.ts';
import { openReportDialog } from '../../scammer-reports/report-dialog-store.ts';

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

  // Members get the scammer report dialog (spec §2); visitors the sign-in prompt (§8).
  const submitTip = useCallback(() => {
    if (!signedIn) {
      toast({
        variant: 'destructive',
        title: 'Authentication Required',
        description: 'Please sign in to submit a scammer report.',
      });
      return;
    }
    openReportDialog();
  }, [signedIn]);

  return { hasAccess: false, openScammerNetwork, submitTip };
}
