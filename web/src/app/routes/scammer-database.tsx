import { DatabasePage } from '#web/features/scammer-reports/components/database-page.tsx';
import { ScammerAccessGate } from '../components/scammer-access-gate.tsx';
import { useLayoutContext } from '../layout/layout-context.ts';

export default function ScammerDatabasePage() {
  const { openSignIn } = useLayoutContext();
  return (
    <DatabasePage
      guard={(content) => <ScammerAccessGate onSignIn={openSignIn}>{content}</ScammerAccessGate>}
    />
  );
}
