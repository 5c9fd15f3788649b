import { Newspaper } from 'lucide-react';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { PageContainer, PageHeader } from '#web/components/layout/page-header.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';

export default function NewsPage() {
  useDocumentTitle('News');
  return (
    <PageContainer>
      <PageHeader
        icon={Newspaper}
        title="News"
        description="Cannabis industry news from trusted sources and posts from our team, in one feed you can filter by category and search."
      />
      <EmptyState icon={Newspaper} title="No articles yet" className="mt-10">
        Articles will appear here once the first news sources are connected. Members will be able to save
        articles to read later.
      </EmptyState>
    </PageContainer>
  );
}
