import { ShieldAlert } from 'lucide-react';
import { useNavigate } from 'react-router';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { PageContainer, PageHeader } from '#web/components/layout/page-header.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';

export default function ScammerDatabasePage() {
  useDocumentTitle('Scammer Network');
  const navigate = useNavigate();
  return (
    <PageContainer>
      <PageHeader
        icon={ShieldAlert}
        eyebrow="Members only"
        title="Scammer Network"
        description="Reviewed reports of scams in the cannabis trade, so you can check a seller or buyer before money changes hands. Access needs a subscription, an active trial or an admin account."
      />
      <EmptyState
        icon={ShieldAlert}
        title="Reports are not available yet"
        className="mt-10"
        actions={<Button onClick={() => navigate('/auth')}>Sign In</Button>}
      >
        Every report is reviewed before it is published. Searchable reports with their evidence will appear
        here for members with access once the first ones are published.
      </EmptyState>
    </PageContainer>
  );
}
