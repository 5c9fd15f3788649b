import { ConfirmButton } from '#web/components/ui/confirm-button.tsx';
import type { MemberChangeRequest } from '../api/update-member.ts';
import type { AdminMember } from '../members.ts';

/** Runs one change of the member (confirmed first), said done with `done`. */
export type MemberAct = (change: MemberChangeRequest, done: string) => Promise<void>;

interface Props {
  member: AdminMember;
  name: string;
  /** The page is the admin's own. */
  self: boolean;
  act: MemberAct;
  busy: boolean;
}

/** The admin role: granted, or revoked (HighGrade keeps at least one admin). */
export function MemberRole({ member, name, self, act, busy }: Props) {
  return (
    <div>
      <h4 className="font-medium">Role</h4>
      <p className="mt-1 text-muted-foreground text-sm">
        Admins run the dashboard and always have access to the Scammer Network.
      </p>
      <div className="mt-3">
        {member.isAdmin ? (
          <ConfirmButton
            variant="outline"
            disabled={busy}
            title={self ? 'Revoke your own admin role?' : `Revoke ${name}'s admin role?`}
            description={
              self
                ? 'You lose access to this dashboard at once. Another admin can give it back. HighGrade keeps at least one admin, so the last admin role cannot be revoked.'
                : `${name} loses access to the dashboard at once. HighGrade keeps at least one admin, so the last admin role cannot be revoked.`
            }
            confirmLabel="Revoke admin role"
            destructive
            onConfirm={() => act({ kind: 'admin', value: false }, 'Admin role revoked')}
          >
            Revoke admin role
          </ConfirmButton>
        ) : (
          <ConfirmButton
            disabled={busy || member.suspended}
            title={`Make ${name} an admin?`}
            description={`${name} can then see every report, booking, member and the audit log, change them, and manage other admins.`}
            confirmLabel="Make admin"
            onConfirm={() => act({ kind: 'admin', value: true }, 'Admin role granted')}
          >
            Make admin
          </ConfirmButton>
        )}
      </div>
    </div>
  );
}

/** The account: suspended (signed out everywhere) or restored; never the admin's own, nor an admin's. */
export function MemberAccount({ member, name, self, act, busy }: Props) {
  return (
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
              disabled={busy}
              title={`Restore ${name}'s account?`}
              description={`${name} can sign in again.`}
              confirmLabel="Restore account"
              onConfirm={() => act({ kind: 'suspended', value: false }, 'Account restored')}
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
              disabled={busy || member.isAdmin}
              title={`Suspend ${name}'s account?`}
              description={`${name} is signed out everywhere and cannot sign in until an admin restores the account. Their profile, reports and bookings stay as they are.`}
              confirmLabel="Suspend account"
              destructive
              onConfirm={() => act({ kind: 'suspended', value: true }, 'Account suspended')}
            >
              Suspend account
            </ConfirmButton>
          </div>
        </>
      )}
    </div>
  );
}
