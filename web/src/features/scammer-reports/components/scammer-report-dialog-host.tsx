import { lazy, Suspense, useState } from 'react';
import { setReportDialogOpen, useReportDialogOpen } from '../report-dialog-store.ts';

const ScammerReportDialog = lazy(() => import('./scammer-report-dialog.tsx'));

/** Mounted once in the app shell; the dialog's code loads the first time a member opens it. */
export function ScammerReportDialogHost() {
  const open = useReportDialogOpen();
  const [used, setUsed] = useState(false);
  if (open && !used) setUsed(true);
  if (!used) return null;
  return (
    <Suspense fallback={null}>
      <ScammerReportDialog open={open} onOpenChange={setReportDialogOpen} />
    </Suspense>
  );
}
