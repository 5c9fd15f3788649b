import { useQuery } from '@tanstack/react-query';
import { SearchX } from 'lucide-react';
import { useLocation, useParams } from 'react-router';
import { DetailField, DetailShell, useRecordAction } from '#web/components/layout/detail-shell.tsx';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { useConfirmedUserId } from '#web/lib/auth/hooks/use-auth.ts';
import { memberQueryOptions } from '../api/get-member.ts';
import { type MemberChange, useChangeMember } from '../api/update-member.ts';
import { type AdminMember, memberAccess, memberName } from '../members.ts';
import { MemberAccess } from './member-access.tsx';
import { MemberBadges } from './member-badges.tsx';
import { MemberAccount, type MemberAct, MemberRole } from './member-role.tsx';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString('en-US') : '—');

function MemberView({ member }: { member: AdminMember }) {
  const me = useConfirmedUserId();
  const change = useChangeMember();
  const action = useRecordAction();
  const name = memberName(member);
  const self = member.id === me;
  const act: MemberAct = (next, done) =>
    action.run(() => change.mutateAsync({ id: member.id, ...next } as MemberChange), done);
  const busy = change.isPending;

  return (
    <article aria-labelledby="member-title" className="grid gap-6">
      <div className="flex flex-wrap items-center gap-3">
        <h3 id="member-title" className="font-semibold text-lg">
          {name}
        </h3>
        <MemberBadges member={member} />
        {self ? <Badge variant="secondary">You</Badge> : null}
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <section aria-label="Profile" className="rounded-xl border p-5">
          <dl className="grid gap-4 sm:grid-cols-2">
            <DetailField label="Full name" value={member.fullName} />
            <DetailField label="Username" value={member.username ? `@${member.username}` : null} />
            <DetailField label="Email" value={member.email} />
            <DetailField label="Scammer Network" value={memberAccess(member)} />
            <DetailField label="Joined" value={when(member.createdAt)} />
            <DetailField label="Last sign-in" value={when(member.lastSignInAt)} />
            <DetailField label="Scam reports submitted" value={member.reportCount} />
            <DetailField label="Bookings" value={member.bookingCount} />
          </dl>
        </section>
        <section aria-label="Role and account" className="grid content-start gap-5 rounded-xl border p-5">
          <MemberRole member={member} name={name} self={self} act={act} busy={busy} />
          <MemberAccount member={member} name={name} self={self} act={act} busy={busy} />
          <MemberAccess member={member} name={name} act={act} busy={busy} />
          {action.problem}
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
    <DetailShell
      back={{ to: `..${search}`, label: 'All members' }}
      what="member"
      query={member}
      notFound={
        <EmptyState icon={SearchX} title="Member not found">
          There is no member with this address. The account may have been deleted.
        </EmptyState>
      }
    >
      {(found) => <MemberView member={found} />}
    </DetailShell>
  );
}
