import { ChartLine } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { PageContainer, PageHeader } from '#web/components/layout/page-header.tsx';
import { MarketOverview } from '#web/features/market/components/market-overview.tsx';
import { isRange, type RangeKey } from '#web/features/market/market-data.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';

/** /market-index (product §market-index). Each index's range is kept in the URL: ?cannabis-equity=3M (default: 1Y for daily series, All for quarterly ones). */
export default function MarketIndexPage() {
  useDocumentTitle('Market Index');
  const [params, setParams] = useSearchParams();
  const rangeOf = (slug: string, fallback: RangeKey): RangeKey => {
    const value = params.get(slug);
    return isRange(value) ? value : fallback;
  };
  return (
    <PageContainer>
      <PageHeader
        icon={ChartLine}
        title="Market Index"
        description="Follow the cannabis market through two indices: listed cannabis companies, and state regulators' retail and wholesale flower prices as reported by the publications named beside each point. Every value shows its date and source."
      />
      <MarketOverview
        rangeOf={rangeOf}
        onRangeChange={(slug, range) => {
          const next = new URLSearchParams(window.location.search);
          next.set(slug, range);
          setParams(next, { replace: true });
        }}
      />
    </PageContainer>
  );
}
