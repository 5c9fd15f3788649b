import { AlertTriangle, CreditCard } from 'lucide-react';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader } from '#web/components/ui/card.tsx';
import { ConfirmButton } from '#web/components/ui/confirm-button.tsx';
import { DEMO_MODE_LABEL, formatDate, SUBSCRIPTION_PRICE, type Subscription } from '../access.ts';
import { CheckoutReturn } from './checkout-return.tsx';
import { BenefitList, DemoModeNotice, SubscriptionHeader } from './subscription-parts.tsx';

/**
 * A subscription that grants access (active, or cancelled and running until its expiry): its plan, price
 * and dates, a failed payment's warning, Manage billing (card payments) and Cancel after a confirmation.
 */
export function ActiveSubscriptionCard({
  active,
  busy,
  onCancel,
  onManageBilling,
}: {
  active: Subscription;
  busy: boolean;
  onCancel: (until: number) => Promise<unknown>;
  onManageBilling: () => Promise<void>;
}) {
  const cancelled = active.status === 'cancelled';
  const paidByCard = active.provider === 'stripe';
  return (
    <Card>
      <CardHeader>
        <SubscriptionHeader
          badge={
            cancelled ? (
              <Badge variant="secondary">Cancelled — access until {formatDate(active.expiresAt)}</Badge>
            ) : (
              <Badge>Active Subscription</Badge>
            )
          }
        />
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
            <Button variant="outline" disabled={busy} onClick={() => void onManageBilling()}>
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
              onConfirm={() => onCancel(active.expiresAt)}
            >
              Cancel Subscription
            </ConfirmButton>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
