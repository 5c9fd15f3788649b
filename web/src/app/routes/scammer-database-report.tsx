import { useParams } from 'react-router';
import { ReportPage } from '#web/features/scammer-reports/components/report-page.tsx';
import { ScammerAccessGate } from '../components/scammer-access-gate.tsx';
import { useLayoutContext } from '../layout/layout-context.ts';

export default function ScammerDatabaseReportPage() {
  const { id = '' } = useParams();
  const { openSignIn } = useLayoutContext();
  return (
    <ReportPage
      key={id}
      id={id}
      guard={(content) => <ScammerAccessGate onSignIn={openSignIn}>{content}</ScammerAccessGate>}
    />
  );
}
