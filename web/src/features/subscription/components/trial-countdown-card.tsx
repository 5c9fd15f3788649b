import { Clock } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Badge } from '#web/components/ui/badge.tsx';
import { Card, CardContent } from '#web/components/ui/card.tsx';
import { formatCountdown, trialBadgeVariant } from '../access.ts';

/**
 * Product §profile, §access: the trial countdown, shown by the page only while the trial is active. The
 * numbers move every second (a display clock of its own); whether the trial is still active is the access
 * status's business (decision 076).
 */
export function TrialCountdownCard({ trialEndsAt }: { trialEndsAt: number }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const remaining = trialEndsAt - now;
  return (
    <Card className="border-primary/40">
      <CardContent className="flex flex-wrap items-center justify-between gap-3 pt-6">
        <div className="flex items-center gap-3">
          <Clock aria-hidden="true" className="size-5 text-primary" />
          <div>
            <h2 className="font-semibold">Free Trial Active</h2>
            <p className="text-muted-foreground text-sm">
              You have full access to the Scammer Network during your trial.
            </p>
          </div>
        </div>
        <Badge
          variant={trialBadgeVariant(remaining)}
          className="font-mono text-sm"
          data-testid="trial-countdown"
        >
          <span className="sr-only">Time left: </span>
          {formatCountdown(remaining)}
        </Badge>
      </CardContent>
    </Card>
  );
}
