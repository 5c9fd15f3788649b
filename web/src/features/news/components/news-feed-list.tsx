import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Newspaper } from 'lucide-react';
import { useDeferredValue } from 'react';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { errorText } from '#web/lib/error-text.ts';
import { newsFeedQueryOptions } from '../api/get-news-feed.ts';
import { savedArticleUrlsQueryOptions } from '../api/get-saved-article-urls.ts';
import { useToggleSavedArticle } from '../api/toggle-saved-article.ts';
import type { NewsEntry, NewsFilters } from '../news-feed.ts';
import { NewsCard, NewsCardSkeleton } from './news-card.tsx';

export interface NewsFeedListProps {
  filters: NewsFilters;
  onFiltersChange: (filters: NewsFilters) => void;
  /** The signed-in member whose hearts are shown, or null (a visitor). */
  userId: string | null;
  onSignIn: () => void;
}

/** The feed's cards with their hearts, "Load more", and its loading, error and empty states. */
export function NewsFeedList({ filters, onFiltersChange, userId, onSignIn }: NewsFeedListProps) {
  const feed = useInfiniteQuery(newsFeedQueryOptions(filters));
  const saved = useQuery(savedArticleUrlsQueryOptions(userId));
  const toggle = useToggleSavedArticle(userId);
  // The cards render from a deferred copy of the data, in an interruptible render (decision 158).
  const shown = useDeferredValue(feed.data);
  const entries = shown?.pages.flat() ?? [];
  const filtered = filters.q.trim() !== '' || Boolean(filters.category);

  const onToggleSave = (entry: NewsEntry, isSaved: boolean) => {
    if (!userId) {
      onSignIn();
      return;
    }
    toggle.mutate(
      { entry, saved: isSaved },
      {
        onSuccess: () =>
          toast(
            isSaved
              ? { title: 'Article Removed', description: 'The article was removed from your saved articles.' }
              : { title: 'Article Saved', description: 'Find it in your profile under Saved.' },
          ),
        onError: (error) => toast({ variant: 'destructive', title: 'Error', description: errorText(error) }),
      },
    );
  };

  if (feed.isPending || (!feed.isError && shown === undefined)) {
    return (
      <div
        className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3"
        role="status"
        aria-busy="true"
        aria-label="Loading articles"
      >
        {Array.from({ length: 6 }, (_, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders
          <NewsCardSkeleton key={index} />
        ))}
      </div>
    );
  }
  if (feed.isError && entries.length === 0) {
    return (
      <EmptyState
        icon={Newspaper}
        title="The news could not be loaded"
        actions={<Button onClick={() => void feed.refetch()}>Try again</Button>}
      >
        {errorText(feed.error)}
      </EmptyState>
    );
  }
  if (entries.length === 0) {
    return (
      <EmptyState
        icon={Newspaper}
        title={filtered ? 'No matching articles' : 'No articles yet'}
        actions={
          filtered ? (
            <Button
              variant="outline"
              onClick={() => onFiltersChange({ q: '', category: null, sort: 'newest' })}
            >
              Show all news
            </Button>
          ) : undefined
        }
      >
        {filtered
          ? 'Nothing matches these filters. Try other words or another category.'
          : 'Articles will appear here once the news sources have been fetched.'}
      </EmptyState>
    );
  }
  return (
    <>
      <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {entries.map((entry) => (
          <NewsCard
            key={`${entry.kind}-${entry.id}`}
            entry={entry}
            saved={entry.url !== null && (saved.data?.has(entry.url) ?? false)}
            busy={toggle.isPending && toggle.variables?.entry.id === entry.id}
            onToggleSave={onToggleSave}
          />
        ))}
      </div>
      <div className="flex justify-center">
        {feed.hasNextPage ? (
          <Button
            variant="outline"
            onClick={() => void feed.fetchNextPage()}
            disabled={feed.isFetchingNextPage}
          >
            {feed.isFetchingNextPage ? 'Loading…' : 'Load more'}
          </Button>
        ) : (
          <p className="text-muted-foreground text-sm">You have reached the end of the feed.</p>
        )}
      </div>
      {feed.isFetchNextPageError ? (
        <p role="alert" className="text-center text-destructive text-sm">
          More articles could not be loaded: {errorText(feed.error)}
        </p>
      ) : null}
    </>
  );
}
