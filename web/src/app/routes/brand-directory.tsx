import { Store } from 'lucide-react';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { PageContainer, PageHeader } from '#web/components/layout/page-header.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';

export default function BrandDirectoryPage() {
  useDocumentTitle('Brand Directory');
  return (
    <PageContainer>
      <PageHeader
        icon={Store}
        title="Brand Directory"
        description="Find cannabis brands with their licence details, locations, products and community scores."
      />
      <EmptyState icon={Store} title="No brands listed yet" className="mt-10">
        Brand profiles will appear here once the directory opens, searchable by name, state and category.
      </EmptyState>
    </PageContainer>
  );
}
