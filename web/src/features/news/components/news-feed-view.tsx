import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Newspaper, Search, X } from 'lucide-react';
import { type FormEvent, useDeferredValue, useEffect, useId, useState } from 'react';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { NativeSelect } from '#web/components/ui/native-select.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { errorText } from '#web/lib/error-text.ts';
import { cn } from '#web/lib/utils.ts';
import { newsCategoriesQueryOptions } from '../api/get-news-categories.ts';
import { newsFeedQueryOptions } from '../api/get-news-feed.ts';
import { savedArticleUrlsQueryOptions, useToggleSavedArticle } from '../api/saved-articles.ts';
import { type NewsEntry, type NewsFilters, SEARCH_MAX_LENGTH, TEAM_CATEGORY } from '../news-feed.ts';
import { NewsCard, NewsCardSkeleton } from './news-card.tsx';

interface NewsFeedViewProps {
  filters: NewsFilters;
  onFiltersChange: (filters: NewsFilters) => void;
  /** The signed-in member whose hearts are shown, or null (a visitor). */
  userId: string | null;
  onSignIn: () => void;
}

function CategoryChips({
  value,
  onChange,
}: {
  value: string | null;
  onChange: (category: string | null) => void;
}) {
  const categories = useQuery(newsCategoriesQueryOptions());
  const names = [...(categories.data ?? []), TEAM_CATEGORY];
  const chip = (label: string, category: string | null) => (
    <button
      key={label}
      type="button"
      aria-pressed={value === category}
      onClick={() => onChange(category)}
      className={cn(
        'shrink-0 rounded-full border px-3 py-1.5 font-medium text-sm transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
        value === category
          ? 'border-primary bg-primary text-primary-foreground'
          : 'bg-card hover:bg-secondary',
      )}
    >
      {label}
    </button>
  );
  return (
    <fieldset className="-mx-1 flex min-w-0 gap-2 overflow-x-auto px-1 pb-1">
      <legend className="sr-only">Category</legend>
      {chip('All', null)}
      {names.map((name) => chip(name === TEAM_CATEGORY ? 'From the team' : name, name))}
    </fieldset>
  );
}

function SearchBox({
  filters,
  onChange,
}: {
  filters: NewsFilters;
  onChange: (filters: NewsFilters) => void;
}) {
  const [text, setText] = useState(filters.q);
  const inputId = useId();
  useEffect(() => setText(filters.q), [filters.q]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onChange({ ...filters, q: text.trim(), sort: text.trim() ? filters.sort : 'newest' });
  };
  return (
    <search className="w-full sm:max-w-md">
      <form onSubmit={submit} className="flex w-full gap-2">
        <label htmlFor={inputId} className="sr-only">
          Search news
        </label>
        <div className="relative flex-1">
          <Search
            aria-hidden="true"
            className="-translate-y-1/2 absolute top-1/2 left-3 size-4 text-muted-foreground"
          />
          <Input
            id={inputId}
            type="search"
            value={text}
            maxLength={SEARCH_MAX_LENGTH}
            onChange={(event) => setText(event.target.value)}
            placeholder="Search headlines and summaries"
            className="pl-9"
          />
        </div>
        <Button type="submit">Search</Button>
      </form>
    </search>
  );
}

/** The news feed (product §news): chips, search, cards, "Load more". */
export function NewsFeedView({ filters, onFiltersChange, userId, onSignIn }: NewsFeedViewProps) {
  const feed = useInfiniteQuery(newsFeedQueryOptions(filters));
  const saved = useQuery(savedArticleUrlsQueryOptions(userId));
  const toggle = useToggleSavedArticle(userId);
  const sortId = useId();
  // The cards render from a deferred copy of the data, in an interruptible render (decision 158).
  const shown = useDeferredValue(feed.data);
  const entries = shown?.pages.flat() ?? [];
  const searching = filters.q.trim() !== '';

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

  return (
    <div className="mt-8 space-y-6">
      <div className="flex flex-col gap-4 lg:flex-row lg:items-center lg:justify-between">
        <SearchBox filters={filters} onChange={onFiltersChange} />
        {searching ? (
          <div className="flex items-center gap-2 text-sm">
            <label htmlFor={sortId}>Sort by</label>
            <NativeSelect
              id={sortId}
              value={filters.sort}
              onChange={(event) =>
                onFiltersChange({
                  ...filters,
                  sort: event.target.value === 'relevance' ? 'relevance' : 'newest',
                })
              }
              className="w-auto"
            >
              <option value="newest">Newest</option>
              <option value="relevance">Most relevant</option>
            </NativeSelect>
          </div>
        ) : null}
      </div>
      <CategoryChips
        value={filters.category}
        onChange={(category) => onFiltersChange({ ...filters, category })}
      />
      {searching ? (
        <p className="flex items-center gap-2 text-muted-foreground text-sm" aria-live="polite">
          Results for “{filters.q}”
          <button
            type="button"
            className="inline-flex items-center gap-1 rounded underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            onClick={() => onFiltersChange({ ...filters, q: '', sort: 'newest' })}
          >
            <X aria-hidden="true" className="size-3.5" /> Clear search
          </button>
        </p>
      ) : null}

      {feed.isPending || (!feed.isError && shown === undefined) ? (
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
      ) : feed.isError && entries.length === 0 ? (
        <EmptyState
          icon={Newspaper}
          title="The news could not be loaded"
          actions={<Button onClick={() => void feed.refetch()}>Try again</Button>}
        >
          {errorText(feed.error)}
        </EmptyState>
      ) : entries.length === 0 ? (
        <EmptyState
          icon={Newspaper}
          title={searching || filters.category ? 'No matching articles' : 'No articles yet'}
          actions={
            searching || filters.category ? (
              <Button
                variant="outline"
                onClick={() => onFiltersChange({ q: '', category: null, sort: 'newest' })}
              >
                Show all news
              </Button>
            ) : undefined
          }
        >
          {searching || filters.category
            ? 'Nothing matches these filters. Try other words or another category.'
            : 'Articles will appear here once the news sources have been fetched.'}
        </EmptyState>
      ) : (
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
      )}
    </div>
  );
}
