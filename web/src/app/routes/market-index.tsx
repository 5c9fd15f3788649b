import { ChartLine } from 'lucide-react';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { PageContainer, PageHeader } from '#web/components/layout/page-header.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';

export default function MarketIndexPage() {
  useDocumentTitle('Market Index');
  return (
    <PageContainer>
      <PageHeader
        icon={ChartLine}
        title="Market Index"
        description="Follow the cannabis market through two indices: listed cannabis companies, and retail and wholesale flower prices from public regulator data."
      />
      <EmptyState icon={ChartLine} title="Market data is not available yet" className="mt-10">
        Index values, charts and constituents will appear here once the first market data is published, each
        with its methodology, sources and as-of date.
      </EmptyState>
    </PageContainer>
  );
}
