import { ThumbsUp } from 'lucide-react';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { PageContainer, PageHeader } from '#web/components/layout/page-header.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';

export default function PassOrGasPage() {
  useDocumentTitle('Pass or Gas');
  return (
    <PageContainer>
      <PageHeader
        icon={ThumbsUp}
        title="Pass or Gas"
        description="Rate cannabis products with one vote each — Gas if it's fire, Pass if it's not — and see what the community thinks."
      />
      <EmptyState icon={ThumbsUp} title="No products to vote on yet" className="mt-10">
        Products will appear here once they are added. Members will be able to vote once per product, change
        their vote and discuss each product in the comments.
      </EmptyState>
    </PageContainer>
  );
}
