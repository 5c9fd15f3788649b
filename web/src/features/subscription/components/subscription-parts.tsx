import { CheckCircle2, Info, ShieldCheck } from 'lucide-react';
import type { ReactNode } from 'react';
import { CardTitle } from '#web/components/ui/card.tsx';
import { DEMO_MODE_LABEL } from '../access.ts';

/** Product §subscription: the benefits of the Scammer Network. */
export const BENEFITS = [
  'View detailed scammer reports',
  'Submit new scammer reports',
  'Access contact information and evidence',
  'Help protect the cannabis community',
] as const;

/** The benefits, each with a check mark. */
export function BenefitList() {
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

/** The tab's card title, Scammer Network, with the badge that says where the member stands. */
export function SubscriptionHeader({ badge }: { badge: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center gap-3">
      <CardTitle className="flex items-center gap-2">
        <ShieldCheck aria-hidden="true" className="size-5 text-primary" />
        Scammer Network
      </CardTitle>
      {badge}
    </div>
  );
}
