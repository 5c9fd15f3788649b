import { useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, CheckCircle2, CreditCard, Info, ShieldCheck } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { ConfirmButton } from '#web/components/ui/confirm-button.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { getConfig } from '#web/lib/config.ts';
import {
  activationDescription,
  DEMO_MODE_LABEL,
  formatDate,
  SUBSCRIPTION_PRICE,
  type Subscription,
} from '../access.ts';
import { goToCheckout, useActivateSubscription } from '../api/activate-subscription.ts';
import { openBillingPortal, useCancelSubscription } from '../api/cancel-subscription.ts';

/** Product §subscription: the benefits of the Scammer Network. */
export const BENEFITS = [
  'View detailed scammer reports',
  'Submit new scammer reports',
  'Access contact information and evidence',
  'Help protect the cannabis community',
] as const;

/** While Stripe's confirmation is awaited after Checkout, the access facts are read this often. */
const CONFIRMATION_POLL_MS = 2000;

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

/** The demo mode's label (decision 131): wherever a subscription can be had without payment. */
export function DemoModeNotice() {
  return (
    <p className="flex items-start gap-2 rounded-md border border-dashed p-3 text-sm" data-testid="demo-mode">
      <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <span>
        <strong>{DEMO_MODE_LABEL}.</strong> This site takes no card payments yet: subscribing activates the
        Scammer Network for one month at no charge.
      </span>
    </p>
  );
}

function errorMessage(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}

/** ?checkout=success|cancelled: what Stripe's Checkout sent the member back with. */
function CheckoutReturn({ subscribed }: { subscribed: boolean }) {
  const [params, setParams] = useSearchParams();
  const queryClient = useQueryClient();
  const state = params.get('checkout');
  const waiting = state === 'success' && !subscribed;
  // Until the webhook has been applied, read the access facts again every few seconds.
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(
      () => void queryClient.invalidateQueries({ queryKey: ['subscription'] }),
      CONFIRMATION_POLL_MS,
    );
    return () => clearInterval(timer);
  }, [waiting, queryClient]);
  if (state !== 'success' && state !== 'cancelled') return null;
  const dismiss = () =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('checkout');
        next.delete('session_id');
        return next;
      },
      { replace: true },
    );
  return (
    <div
      role="status"
      className="flex flex-wrap items-start justify-between gap-3 rounded-md border p-4 text-sm"
    >
      <p>
        {state === 'cancelled'
          ? 'Checkout cancelled — nothing was charged. You can subscribe whenever you like.'
          : subscribed
            ? 'Payment received — your Scammer Network subscription is active.'
            : 'Payment received — waiting for Stripe to confirm it. Your access starts in a moment.'}
      </p>
      <Button variant="ghost" size="sm" onClick={dismiss}>
        Dismiss
      </Button>
    </div>
  );
}

interface SubscriptionTabProps {
  userId: string;
  /** The member's subscription while it grants access (unexpired, active or cancelled), else null. */
  active: Subscription | null;
  /** Admins always have access (product §access): they are never asked to subscribe. */
  isAdmin?: boolean;
  /** When a running free trial ends (epoch ms), else null: the tab says "Free trial", not "Not Subscribed". */
  trialEndsAt?: number | null;
}

/** "November 29, 2026 at 3:04 PM" in the reader's own time zone, with the zone named. */
function formatDateTime(epochMs: number): string {
  return new Date(epochMs).toLocaleString('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  });
}

/**
 * Product §subscription, §access, issue 22: subscribe (Stripe Checkout, or the labelled demo mode),
 * cancel at period end after a confirmation, manage billing in Stripe's portal.
 */
export function SubscriptionTab({ active, isAdmin = false, trialEndsAt = null }: SubscriptionTabProps) {
  const activation = useActivateSubscription();
  const cancellation = useCancelSubscription();
  const [portalBusy, setPortalBusy] = useState(false);
  const mode = getConfig().payments;
  const busy = activation.isPending || cancellation.isPending || portalBusy;

  const subscribe = () =>
    activation.mutateAsync().then(
      (result) => {
        if (result.mode === 'stripe') return goToCheckout(result.checkoutUrl);
        toast({ title: 'Subscription activated', description: activationDescription(result.subscription) });
      },
      (error: unknown) =>
        toast({
          variant: 'destructive',
          title: 'Error',
          description:
            mode === 'stripe'
              ? errorMessage(error, 'Payment processor coming soon.')
              : 'Payment processor coming soon.',
        }),
    );

  const cancel = (until: number) =>
    cancellation.mutateAsync().then(
      () =>
        toast({
          title: 'Subscription cancelled',
          description: `You keep access to the Scammer Network until ${formatDate(until)}.`,
        }),
      () =>
        toast({
          variant: 'destructive',
          title: 'Error',
          description: 'Failed to cancel subscription. Please try again.',
        }),
    );

  const manageBilling = async () => {
    setPortalBusy(true);
    try {
      await openBillingPortal();
    } catch (error) {
      toast({
        variant: 'destructive',
        title: 'Error',
        description: errorMessage(error, 'Billing is unavailable.'),
      });
      setPortalBusy(false);
    }
  };

  const header = (badge: ReactNode) => (
    <div className="flex flex-wrap items-center gap-3">
      <CardTitle className="flex items-center gap-2">
        <ShieldCheck aria-hidden="true" className="size-5 text-primary" />
        Scammer Network
      </CardTitle>
      {badge}
    </div>
  );

  if (active) {
    const cancelled = active.status === 'cancelled';
    const paidByCard = active.provider === 'stripe';
    return (
      <Card>
        <CardHeader>
          {header(
            cancelled ? (
              <Badge variant="secondary">Cancelled — access until {formatDate(active.expiresAt)}</Badge>
            ) : (
              <Badge>Active Subscription</Badge>
            ),
          )}
          <CardDescription>
            {cancelled
              ? `Your subscription will not renew. You keep full access to the Scammer Network until ${formatDate(active.expiresAt)}.`
              : 'Your subscription gives you full access to the Scammer Network.'}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-6">
          <CheckoutReturn subscribed />
          {active.paymentFailedAt !== null && !cancelled ? (
            <p
              role="alert"
              className="flex items-start gap-2 rounded-md border border-destructive/50 p-3 text-sm"
            >
              <AlertTriangle aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-destructive" />
              <span>
                Your last payment failed. Update your card under Manage billing by{' '}
                {formatDate(active.expiresAt)} to keep your access.
              </span>
            </p>
          ) : null}
          {active.provider === 'demo' ? <DemoModeNotice /> : null}
          <dl className="grid gap-4 text-sm sm:grid-cols-2 lg:grid-cols-4">
            <div>
              <dt className="text-muted-foreground">Plan</dt>
              <dd className="font-medium capitalize">{active.subscriptionType}</dd>
            </div>
            <div>
              <dt className="text-muted-foreground">Price</dt>
              <dd className="font-medium">
                {active.provider === 'stripe'
                  ? `${SUBSCRIPTION_PRICE}, paid by card`
                  : active.provider === 'admin'
                    ? 'Granted by an admin (no charge)'
                    : `No charge (${DEMO_MODE_LABEL.toLowerCase()})`}
              </dd>
            </div>
            <div>
              <dt className="text-muted-foreground">
                {cancelled ? 'Access until' : paidByCard ? 'Renews on' : 'Expires'}
              </dt>
              <dd className="font-medium">{formatDate(active.expiresAt)}</dd>
            </div>
            <div>
              <dt className="text-muted-foreground">Subscribed since</dt>
              <dd className="font-medium">{formatDate(active.createdAt)}</dd>
            </div>
          </dl>
          <BenefitList />
          <div className="flex flex-wrap gap-3">
            {paidByCard ? (
              <Button variant="outline" disabled={busy} onClick={() => void manageBilling()}>
                <CreditCard aria-hidden="true" />
                Manage billing
              </Button>
            ) : null}
            {cancelled ? null : (
              <ConfirmButton
                variant="destructive"
                disabled={busy}
                title="Cancel your subscription?"
                description={`It will not renew. You keep full access to the Scammer Network until ${formatDate(active.expiresAt)}${paidByCard ? ', and you will not be charged again' : ''}.`}
                confirmLabel="Cancel Subscription"
                destructive
                onConfirm={() => cancel(active.expiresAt)}
              >
                Cancel Subscription
              </ConfirmButton>
            )}
          </div>
        </CardContent>
      </Card>
    );
  }

  if (isAdmin) {
    return (
      <Card>
        <CardHeader>
          {header(<Badge>Admin Access</Badge>)}
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
        {trialEndsAt !== null ? (
          <>
            {header(<Badge variant="secondary">Free trial — until {formatDateTime(trialEndsAt)}</Badge>)}
            <CardDescription>
              Your free trial gives you full access to the Scammer Network until {formatDateTime(trialEndsAt)}
              . Subscribe to keep access after it ends.
            </CardDescription>
          </>
        ) : (
          <>
            {header(<Badge variant="outline">Not Subscribed</Badge>)}
            <CardDescription>Subscribe to get full access to the Scammer Network.</CardDescription>
          </>
        )}
      </CardHeader>
      <CardContent className="grid gap-6">
        <CheckoutReturn subscribed={false} />
        <BenefitList />
        <p className="font-bold text-2xl">{SUBSCRIPTION_PRICE}</p>
        {mode === 'demo' ? (
          <DemoModeNotice />
        ) : (
          <p className="text-muted-foreground text-sm">
            You pay on Stripe's secure checkout page; your card details never reach HighGrade. Cancel any
            time: access continues until the end of the month you paid for.
          </p>
        )}
        <div>
          <Button disabled={busy} onClick={() => void subscribe()}>
            Subscribe Now
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
