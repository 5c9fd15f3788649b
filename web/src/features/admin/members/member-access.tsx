import { ConfirmButton } from '#web/components/ui/confirm-button.tsx';
import { SelectField } from '#web/components/ui/form-field.tsx';
import { useForm } from '#web/lib/use-form.ts';
import { type AdminMember, memberAccess } from '../members.ts';
import type { MemberAct } from './member-role.tsx';

const MONTHS = [1, 3, 6, 12] as const;
const HOURS = [24, 48, 72, 168] as const;
const hoursText = (hours: string) => (hours === '168' ? '7 days' : `${hours} hours`);

/** Scammer Network access: a subscription or a trial granted by an admin, or taken back. */
export function MemberAccess({
  member,
  name,
  act,
  busy,
}: {
  member: AdminMember;
  name: string;
  act: MemberAct;
  busy: boolean;
}) {
  const form = useForm({ months: '1', hours: '24' });
  const { months, hours } = form.values;
  const now = new Date();
  const subscribed = member.subscriptionExpiresAt !== null && new Date(member.subscriptionExpiresAt) > now;
  const onTrial = member.trialEndsAt !== null && new Date(member.trialEndsAt) > now;
  return (
    <div>
      <h4 className="font-medium">Scammer Network access</h4>
      <p className="mt-1 text-muted-foreground text-sm">
        {member.isAdmin
          ? 'Admins always have access; a grant matters only if the admin role goes.'
          : `Now: ${memberAccess(member)}. A grant is free of charge and recorded in the audit log.`}
      </p>
      <div className="mt-3 flex flex-wrap items-end gap-2">
        <SelectField label="Subscription length" id="grant-months" {...form.field('months')}>
          {MONTHS.map((count) => (
            <option key={count} value={count}>
              {count} {count === 1 ? 'month' : 'months'}
            </option>
          ))}
        </SelectField>
        <ConfirmButton
          disabled={busy}
          title={`Grant ${name} a subscription?`}
          description={`${name} gets the Scammer Network for ${months === '1' ? '1 month' : `${months} months`}${subscribed ? ', added to the subscription they have' : ' from now'}, at no charge. It shows as granted by an admin.`}
          confirmLabel="Grant subscription"
          onConfirm={() =>
            act({ kind: 'grant-subscription', months: Number(months) }, 'Subscription granted')
          }
        >
          Grant subscription
        </ConfirmButton>
        {subscribed ? (
          <ConfirmButton
            variant="destructive"
            disabled={busy}
            title={`Revoke ${name}'s subscription?`}
            description={`${name} loses Scammer Network access now (unless a trial is running). A subscription paid by card is not ended here: cancel it in Stripe.`}
            confirmLabel="Revoke subscription"
            destructive
            onConfirm={() => act({ kind: 'revoke-subscription' }, 'Subscription revoked')}
          >
            Revoke subscription
          </ConfirmButton>
        ) : null}
      </div>
      <div className="mt-3 flex flex-wrap items-end gap-2">
        <SelectField label="Trial length" id="trial-hours" {...form.field('hours')}>
          {HOURS.map((count) => (
            <option key={count} value={count}>
              {hoursText(String(count))}
            </option>
          ))}
        </SelectField>
        <ConfirmButton
          variant="outline"
          disabled={busy}
          title={`Give ${name} a trial?`}
          description={`${name}'s trial runs for ${hoursText(hours)} from now${onTrial ? ', replacing the running one' : ''}.`}
          confirmLabel="Give trial"
          onConfirm={() => act({ kind: 'trial', hours: Number(hours) }, 'Trial given')}
        >
          Give trial
        </ConfirmButton>
        {onTrial ? (
          <ConfirmButton
            variant="destructive"
            disabled={busy}
            title={`End ${name}'s trial?`}
            description={`${name}'s free trial ends now; without a subscription they lose Scammer Network access.`}
            confirmLabel="End trial"
            destructive
            onConfirm={() => act({ kind: 'trial', hours: 0 }, 'Trial ended')}
          >
            End trial
          </ConfirmButton>
        ) : null}
      </div>
    </div>
  );
}
