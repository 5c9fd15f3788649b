import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader } from '#web/components/ui/card.tsx';
import { getConfig } from '#web/lib/config.ts';
import { SUBSCRIPTION_PRICE } from '../access.ts';
import { CheckoutReturn } from './checkout-return.tsx';
import { BenefitList, DemoModeNotice, SubscriptionHeader } from './subscription-parts.tsx';

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

/** No subscription (or a free trial running): the benefits, the price, and Subscribe Now. */
export function SubscribeCard({
  trialEndsAt,
  busy,
  onSubscribe,
}: {
  /** When a running free trial ends (epoch ms), else null. */
  trialEndsAt: number | null;
  busy: boolean;
  onSubscribe: () => Promise<unknown>;
}) {
  const mode = getConfig().payments;
  return (
    <Card>
      <CardHeader>
        {trialEndsAt !== null ? (
          <>
            <SubscriptionHeader
              badge={<Badge variant="secondary">Free trial — until {formatDateTime(trialEndsAt)}</Badge>}
            />
            <CardDescription>
              Your free trial gives you full access to the Scammer Network until {formatDateTime(trialEndsAt)}
              . Subscribe to keep access after it ends.
            </CardDescription>
          </>
        ) : (
          <>
            <SubscriptionHeader badge={<Badge variant="outline">Not Subscribed</Badge>} />
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
          <Button disabled={busy} onClick={() => void onSubscribe()}>
            Subscribe Now
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
