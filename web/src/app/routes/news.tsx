import { Newspaper } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { PageContainer, PageHeader } from '#web/components/layout/page-header.tsx';
import { NewsFeedView } from '#web/features/news/components/news-feed-view.tsx';
import { filtersFromSearch, searchFromFilters } from '#web/features/news/news-feed.ts';
import { useConfirmedUserId } from '#web/lib/auth/hooks/use-auth.ts';
import { openSignInDialog } from '#web/lib/auth/sign-in-dialog.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';

export default function NewsPage() {
  useDocumentTitle('News');
  const [params, setParams] = useSearchParams();
  const userId = useConfirmedUserId();
  return (
    <PageContainer>
      <PageHeader
        icon={Newspaper}
        title="News"
        description="Cannabis industry news from trusted sources and posts from our team, in one feed you can filter by category and search."
      />
      <NewsFeedView
        filters={filtersFromSearch(params)}
        onFiltersChange={(filters) => setParams(searchFromFilters(filters))}
        userId={userId}
        onSignIn={openSignInDialog}
      />
    </PageContainer>
  );
}
