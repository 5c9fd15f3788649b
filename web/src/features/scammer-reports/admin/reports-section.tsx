import { Route, Routes } from 'react-router';
import { SectionShell } from '#web/components/layout/detail-shell.tsx';
import { ReportReview } from './report-review.tsx';
import { ReportsQueue } from './reports-queue.tsx';

/** /admin/reports (queue) and /admin/reports/<id> (review): the admin dashboard's reports section. */
export function ReportsSection() {
  return (
    <SectionShell
      id="reports-heading"
      title="Scammer reports"
      description="Review members' reports before anything is public: claim one, write its public summary, redact personal data, then publish or reject it with a reason. Every step is logged and the reporter is told."
    >
      <Routes>
        <Route index element={<ReportsQueue />} />
        <Route path=":id" element={<ReportReview />} />
      </Routes>
    </SectionShell>
  );
}
