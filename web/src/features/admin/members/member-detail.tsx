import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, SearchX } from 'lucide-react';
import { useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { QueryState } from '#web/components/layout/list-states.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmButton } from '#web/components/ui/confirm-button.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { NativeSelect } from '#web/components/ui/native-select.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { useConfirmedUserId } from '#web/lib/auth/hooks/use-auth.ts';
import { errorText } from '#web/lib/error-text.ts';
import { memberQueryOptions } from '../api/get-members.ts';
import { type MemberChange, type MemberChangeRequest, useChangeMember } from '../api/update-member.ts';
import { type AdminMember, memberAccess, memberName } from '../members.ts';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString('en-US') : '—');

function Field({ label, value }: { label: string; value: string | number | null }) {
  return (
    <div>
      <dt className="text-muted-foreground text-sm">{label}</dt>
      <dd className="mt-0.5">{value === null || value === '' ? '—' : value}</dd>
    </div>
  );
}

function MemberView({ member }: { member: AdminMember }) {
  const me = useConfirmedUserId();
  const change = useChangeMember();
  const [problem, setProblem] = useState<string | null>(null);
  const name = memberName(member);
  const self = member.id === me;
  const [months, setMonths] = useState('1');
  const [hours, setHours] = useState('24');
  const now = new Date();
  const subscriptionEnds = member.subscriptionExpiresAt ? new Date(member.subscriptionExpiresAt) : null;
  const subscribed = subscriptionEnds !== null && subscriptionEnds > now;
  const trialEnds = member.trialEndsAt ? new Date(member.trialEndsAt) : null;
  const onTrial = trialEnds !== null && trialEnds > now;
  const run = (next: MemberChangeRequest, done: string) => {
    setProblem(null);
    return change.mutateAsync({ id: member.id, ...next } as MemberChange).then(
      () => toast({ title: done }),
      (error: unknown) => {
        // Said twice: as a toast, and beside the buttons until the next attempt.
        setProblem(errorText(error));
        toast({ variant: 'destructive', title: 'Error', description: errorText(error) });
      },
    );
  };

  return (
    <article aria-labelledby="member-title" className="grid gap-6">
      <div className="flex flex-wrap items-center gap-3">
        <h3 id="member-title" className="font-semibold text-lg">
          {name}
        </h3>
        {member.isAdmin ? <Badge>Admin</Badge> : <Badge variant="outline">Member</Badge>}
        {member.suspended ? <Badge variant="destructive">Suspended</Badge> : null}
        {self ? <Badge variant="secondary">You</Badge> : null}
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <section aria-label="Profile" className="rounded-xl border p-5">
          <dl className="grid gap-4 sm:grid-cols-2">
            <Field label="Full name" value={member.fullName} />
            <Field label="Username" value={member.username ? `@${member.username}` : null} />
            <Field label="Email" value={member.email} />
            <Field label="Scammer Network" value={memberAccess(member)} />
            <Field label="Joined" value={when(member.createdAt)} />
            <Field label="Last sign-in" value={when(member.lastSignInAt)} />
            <Field label="Scam reports submitted" value={member.reportCount} />
            <Field label="Bookings" value={member.bookingCount} />
          </dl>
        </section>
        <section aria-label="Role and account" className="grid content-start gap-5 rounded-xl border p-5">
          <div>
            <h4 className="font-medium">Role</h4>
            <p className="mt-1 text-muted-foreground text-sm">
              Admins run the dashboard and always have access to the Scammer Network.
            </p>
            <div className="mt-3">
              {member.isAdmin ? (
                <ConfirmButton
                  variant="outline"
                  disabled={change.isPending}
                  title={self ? 'Revoke your own admin role?' : `Revoke ${name}'s admin role?`}
                  description={
                    self
                      ? 'You lose access to this dashboard at once. Another admin can give it back. HighGrade keeps at least one admin, so the last admin role cannot be revoked.'
                      : `${name} loses access to the dashboard at once. HighGrade keeps at least one admin, so the last admin role cannot be revoked.`
                  }
                  confirmLabel="Revoke admin role"
                  destructive
                  onConfirm={() => run({ kind: 'admin', value: false }, 'Admin role revoked')}
                >
                  Revoke admin role
                </ConfirmButton>
              ) : (
                <ConfirmButton
                  disabled={change.isPending || member.suspended}
                  title={`Make ${name} an admin?`}
                  description={`${name} can then see every report, booking, member and the audit log, change them, and manage other admins.`}
                  confirmLabel="Make admin"
                  onConfirm={() => run({ kind: 'admin', value: true }, 'Admin role granted')}
                >
                  Make admin
                </ConfirmButton>
              )}
            </div>
          </div>
          <div>
            <h4 className="font-medium">Account</h4>
            {self ? (
              <p className="mt-1 text-muted-foreground text-sm">You cannot suspend your own account.</p>
            ) : member.suspended ? (
              <>
                <p className="mt-1 text-muted-foreground text-sm">
                  This account is suspended: it cannot sign in or refresh a session.
                </p>
                <div className="mt-3">
                  <ConfirmButton
                    disabled={change.isPending}
                    title={`Restore ${name}'s account?`}
                    description={`${name} can sign in again.`}
                    confirmLabel="Restore account"
                    onConfirm={() => run({ kind: 'suspended', value: false }, 'Account restored')}
                  >
                    Restore account
                  </ConfirmButton>
                </div>
              </>
            ) : (
              <>
                <p className="mt-1 text-muted-foreground text-sm">
                  {member.isAdmin
                    ? 'Revoke the admin role before suspending this account.'
                    : 'A suspended account cannot sign in or refresh a session, and its sessions end now.'}
                </p>
                <div className="mt-3">
                  <ConfirmButton
                    variant="destructive"
                    disabled={change.isPending || member.isAdmin}
                    title={`Suspend ${name}'s account?`}
                    description={`${name} is signed out everywhere and cannot sign in until an admin restores the account. Their profile, reports and bookings stay as they are.`}
                    confirmLabel="Suspend account"
                    destructive
                    onConfirm={() => run({ kind: 'suspended', value: true }, 'Account suspended')}
                  >
                    Suspend account
                  </ConfirmButton>
                </div>
              </>
            )}
          </div>
          <div>
            <h4 className="font-medium">Scammer Network access</h4>
            <p className="mt-1 text-muted-foreground text-sm">
              {member.isAdmin
                ? 'Admins always have access; a grant matters only if the admin role goes.'
                : `Now: ${memberAccess(member)}. A grant is free of charge and recorded in the audit log.`}
            </p>
            <div className="mt-3 flex flex-wrap items-end gap-2">
              <div className="grid gap-1">
                <Label htmlFor="grant-months">Subscription length</Label>
                <NativeSelect
                  id="grant-months"
                  value={months}
                  onChange={(event) => setMonths(event.target.value)}
                >
                  {[1, 3, 6, 12].map((count) => (
                    <option key={count} value={count}>
                      {count} {count === 1 ? 'month' : 'months'}
                    </option>
                  ))}
                </NativeSelect>
              </div>
              <ConfirmButton
                disabled={change.isPending}
                title={`Grant ${name} a subscription?`}
                description={`${name} gets the Scammer Network for ${months === '1' ? '1 month' : `${months} months`}${subscribed ? ', added to the subscription they have' : ' from now'}, at no charge. It shows as granted by an admin.`}
                confirmLabel="Grant subscription"
                onConfirm={() =>
                  run({ kind: 'grant-subscription', months: Number(months) }, 'Subscription granted')
                }
              >
                Grant subscription
              </ConfirmButton>
              {subscribed ? (
                <ConfirmButton
                  variant="destructive"
                  disabled={change.isPending}
                  title={`Revoke ${name}'s subscription?`}
                  description={`${name} loses Scammer Network access now (unless a trial is running). A subscription paid by card is not ended here: cancel it in Stripe.`}
                  confirmLabel="Revoke subscription"
                  destructive
                  onConfirm={() => run({ kind: 'revoke-subscription' }, 'Subscription revoked')}
                >
                  Revoke subscription
                </ConfirmButton>
              ) : null}
            </div>
            <div className="mt-3 flex flex-wrap items-end gap-2">
              <div className="grid gap-1">
                <Label htmlFor="trial-hours">Trial length</Label>
                <NativeSelect
                  id="trial-hours"
                  value={hours}
                  onChange={(event) => setHours(event.target.value)}
                >
                  {[24, 48, 72, 168].map((count) => (
                    <option key={count} value={count}>
                      {count === 168 ? '7 days' : `${count} hours`}
                    </option>
                  ))}
                </NativeSelect>
              </div>
              <ConfirmButton
                variant="outline"
                disabled={change.isPending}
                title={`Give ${name} a trial?`}
                description={`${name}'s trial runs for ${hours === '168' ? '7 days' : `${hours} hours`} from now${onTrial ? ', replacing the running one' : ''}.`}
                confirmLabel="Give trial"
                onConfirm={() => run({ kind: 'trial', hours: Number(hours) }, 'Trial given')}
              >
                Give trial
              </ConfirmButton>
              {onTrial ? (
                <ConfirmButton
                  variant="destructive"
                  disabled={change.isPending}
                  title={`End ${name}'s trial?`}
                  description={`${name}'s free trial ends now; without a subscription they lose Scammer Network access.`}
                  confirmLabel="End trial"
                  destructive
                  onConfirm={() => run({ kind: 'trial', hours: 0 }, 'Trial ended')}
                >
                  End trial
                </ConfirmButton>
              ) : null}
            </div>
          </div>
          {problem ? (
            <p role="alert" className="rounded-md border border-destructive/40 p-3 text-destructive text-sm">
              {problem}
            </p>
          ) : null}
        </section>
      </div>
    </article>
  );
}

/** One member: profile, access, counts, and the role and account actions (each confirmed first). */
export function MemberDetail() {
  const { id = '' } = useParams();
  const { search } = useLocation();
  const member = useQuery(memberQueryOptions(id));
  return (
    <div className="grid gap-5">
      <div>
        <Button asChild variant="ghost" className="-ml-3">
          <Link to={`..${search}`} relative="path">
            <ArrowLeft aria-hidden="true" />
            All members
          </Link>
        </Button>
      </div>
      {member.isPending || member.isError ? (
        <QueryState
          what="member"
          query={member}
          loading={
            <>
              <Skeleton className="h-8 w-72" />
              <Skeleton className="h-64 w-full" />
            </>
          }
        />
      ) : member.data === null ? (
        <EmptyState icon={SearchX} title="Member not found">
          There is no member with this address. The account may have been deleted.
        </EmptyState>
      ) : (
        <MemberView member={member.data} />
      )}
    </div>
  );
}
