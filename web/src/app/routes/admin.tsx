import { LayoutDashboard } from 'lucide-react';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { PageContainer, PageHeader } from '#web/components/layout/page-header.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';

export default function AdminPage() {
  useDocumentTitle('Admin Dashboard');
  return (
    <PageContainer>
      <PageHeader
        icon={LayoutDashboard}
        title="Admin Dashboard"
        description="Where admins publish posts, review scammer reports, and manage bookings, members, brands, products, news sources and market data."
      />
      <EmptyState icon={LayoutDashboard} title="The dashboard is not available yet" className="mt-10">
        It opens for signed-in admins once accounts are available.
      </EmptyState>
    </PageContainer>
  );
}
