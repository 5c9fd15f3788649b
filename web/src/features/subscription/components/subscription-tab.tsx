import { Badge } from '#web/components/ui/badge.tsx';
import { Card, CardDescription, CardHeader } from '#web/components/ui/card.tsx';
import type { Subscription } from '../access.ts';
import { useSubscriptionActions } from '../hooks/use-subscription-actions.ts';
import { ActiveSubscriptionCard } from './active-subscription-card.tsx';
import { SubscribeCard } from './subscribe-card.tsx';
import { SubscriptionHeader } from './subscription-parts.tsx';

interface SubscriptionTabProps {
  userId: string;
  /** The member's subscription while it grants access (unexpired, active or cancelled), else null. */
  active: Subscription | null;
  /** Admins always have access (product §access): they are never asked to subscribe. */
  isAdmin?: boolean;
  /** When a running free trial ends (epoch ms), else null: the tab says "Free trial", not "Not Subscribed". */
  trialEndsAt?: number | null;
}

/**
 * Product §subscription, §access, issue 22: subscribe (Stripe Checkout, or the labelled demo mode),
 * cancel at period end after a confirmation, manage billing in Stripe's portal.
 */
export function SubscriptionTab({ active, isAdmin = false, trialEndsAt = null }: SubscriptionTabProps) {
  const { busy, subscribe, cancel, manageBilling } = useSubscriptionActions();

  if (active) {
    return (
      <ActiveSubscriptionCard active={active} busy={busy} onCancel={cancel} onManageBilling={manageBilling} />
    );
  }

  if (isAdmin) {
    return (
      <Card>
        <CardHeader>
          <SubscriptionHeader badge={<Badge>Admin Access</Badge>} />
          <CardDescription>
            As an admin you always have full access to the Scammer Network. No subscription is needed.
          </CardDescription>
        </CardHeader>
      </Card>
    );
  }

  return <SubscribeCard trialEndsAt={trialEndsAt} busy={busy} onSubscribe={subscribe} />;
}
