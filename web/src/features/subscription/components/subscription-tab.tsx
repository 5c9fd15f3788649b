import { CheckCircle2, ShieldCheck } from 'lucide-react';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { SUBSCRIPTION_PRICE, type Subscription } from '../access.ts';
import { useActivateSubscription } from '../api/activate-subscription.ts';
import { useCancelSubscription } from '../api/cancel-subscription.ts';

/** Product §subscription: the benefits of the Scammer Network. */
export const BENEFITS = [
  'View detailed scammer reports',
  'Submit new scammer reports',
  'Access contact information and evidence',
  'Help protect the cannabis community',
] as const;

function formatDate(epochMs: number): string {
  return new Date(epochMs).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
}

function BenefitList() {
  return (
    <ul className="grid gap-2" aria-label="Benefits">
      {BENEFITS.map((benefit) => (
        <li key={benefit} className="flex items-start gap-2 text-sm">
          <CheckCircle2 aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-primary" />
          {benefit}
        </li>
      ))}
    </ul>
  );
}

interface SubscriptionTabProps {
  userId: string;
  /** The member's subscription when it is active and unexpired (product §access), else null. */
  active: Subscription | null;
  /** Admins always have access (product §access): they are never asked to subscribe. */
  isAdmin?: boolean;
}

/** Product §subscription, §access: subscribe (written directly, no payment) and cancel. */
export function SubscriptionTab({ userId, active, isAdmin = false }: SubscriptionTabProps) {
  const activation = useActivateSubscription();
  const cancellation = useCancelSubscription();
  const busy = activation.isPending || cancellation.isPending;

  // Each resolves once the page's view of the member's access has been refreshed.
  const subscribe = () =>
    activation.mutateAsync(userId).then(
      () => toast({ title: 'Subscription activated' }),
      () => toast({ variant: 'destructive', title: 'Error', description: 'Payment processor coming soon.' }),
    );

  const cancel = () =>
    cancellation.mutateAsync(userId).then(
      () => toast({ title: 'Subscription cancelled' }),
      () =>
        toast({
          variant: 'destructive',
          title: 'Error',
          description: 'Failed to cancel subscription. Please try again.',
        }),
    );

  if (active) {
    return (
      <Card>
        <CardHeader>
          <div className="flex flex-wrap items-center gap-3">
            <CardTitle className="flex items-center gap-2">
              <ShieldCheck aria-hidden="true" className="size-5 text-primary" />
              Scammer Network
            </CardTitle>
            <Badge>Active Subscription</Badge>
          </div>
          <CardDescription>Your subscription gives you full access to the Scammer Network.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-6">
          <dl className="grid gap-4 text-sm sm:grid-cols-3">
            <div>
              <dt className="text-muted-foreground">Plan</dt>
              <dd className="font-medium capitalize">{active.subscriptionType}</dd>
            </div>
            <div>
              <dt className="text-muted-foreground">Expires</dt>
              <dd className="font-medium">{formatDate(active.expiresAt)}</dd>
            </div>
            <div>
              <dt className="text-muted-foreground">Subscribed since</dt>
              <dd className="font-medium">{formatDate(active.createdAt)}</dd>
            </div>
          </dl>
          <BenefitList />
          <div>
            <Button variant="destructive" disabled={busy} onClick={() => void cancel()}>
              Cancel Subscription
            </Button>
          </div>
        </CardContent>
      </Card>
    );
  }

  if (isAdmin) {
    return (
      <Card>
        <CardHeader>
          <div className="flex flex-wrap items-center gap-3">
            <CardTitle className="flex items-center gap-2">
              <ShieldCheck aria-hidden="true" className="size-5 text-primary" />
              Scammer Network
            </CardTitle>
            <Badge>Admin Access</Badge>
          </div>
          <CardDescription>
            As an admin you always have full access to the Scammer Network. No subscription is needed.
          </CardDescription>
        </CardHeader>
      </Card>
    );
  }

  return (
    <Card>
      <CardHeader>
        <div className="flex flex-wrap items-center gap-3">
          <CardTitle className="flex items-center gap-2">
            <ShieldCheck aria-hidden="true" className="size-5 text-primary" />
            Scammer Network
          </CardTitle>
          <Badge variant="outline">Not Subscribed</Badge>
        </div>
        <CardDescription>Subscribe to get full access to the Scammer Network.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <BenefitList />
        <p className="font-bold text-2xl">{SUBSCRIPTION_PRICE}</p>
        <div>
          <Button disabled={busy} onClick={() => void subscribe()}>
            Subscribe Now
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
