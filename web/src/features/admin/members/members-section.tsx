import { Route, Routes } from 'react-router';
import { SectionShell } from '#web/components/layout/detail-shell.tsx';
import { MemberDetail } from './member-detail.tsx';
import { MembersList } from './members-list.tsx';

/** /admin/members (search and list) and /admin/members/<id> (one member): the members and roles section. */
export function MembersSection() {
  return (
    <SectionShell
      id="members-heading"
      title="Members"
      description="Find members by email, username or name; grant or revoke the admin role; suspend or restore accounts."
    >
      <Routes>
        <Route index element={<MembersList />} />
        <Route path=":id" element={<MemberDetail />} />
      </Routes>
    </SectionShell>
  );
}
