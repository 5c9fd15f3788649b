import { Route, Routes } from 'react-router';
import { MemberDetail } from './member-detail.tsx';
import { MembersList } from './members-list.tsx';

/** /admin/members (search and list) and /admin/members/<id> (one member): the members and roles section. */
export function MembersSection() {
  return (
    <section aria-labelledby="members-heading" className="grid gap-4">
      <div>
        <h2 id="members-heading" className="font-semibold text-xl">
          Members
        </h2>
        <p className="mt-1 text-muted-foreground">
          Find members by email, username or name; grant or revoke the admin role; suspend or restore
          accounts.
        </p>
      </div>
      <Routes>
        <Route index element={<MembersList />} />
        <Route path=":id" element={<MemberDetail />} />
      </Routes>
    </section>
  );
}
