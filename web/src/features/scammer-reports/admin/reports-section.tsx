import { Route, Routes } from 'react-router';
import { ReportReview } from './report-review.tsx';
import { ReportsQueue } from './reports-queue.tsx';

/** /admin/reports (queue) and /admin/reports/<id> (review): the admin dashboard's reports section. */
export function ReportsSection() {
  return (
    <section aria-labelledby="reports-heading" className="grid gap-4">
      <div>
        <h2 id="reports-heading" className="font-semibold text-xl">
          Scammer reports
        </h2>
        <p className="mt-1 text-muted-foreground">
          Review members' reports before anything is public: claim one, write its public summary, redact
          personal data, then publish or reject it with a reason. Every step is logged and the reporter is
          told.
        </p>
      </div>
      <Routes>
        <Route index element={<ReportsQueue />} />
        <Route path=":id" element={<ReportReview />} />
      </Routes>
    </section>
  );
}
