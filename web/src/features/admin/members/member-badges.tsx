import { Badge } from '#web/components/ui/badge.tsx';
import type { AdminMember } from '../members.ts';

/** The member's role and, when suspended, their account's state. */
export function MemberBadges({ member }: { member: AdminMember }) {
  return (
    <>
      {member.isAdmin ? <Badge>Admin</Badge> : <Badge variant="outline">Member</Badge>}
      {member.suspended ? <Badge variant="destructive">Suspended</Badge> : null}
    </>
  );
}
