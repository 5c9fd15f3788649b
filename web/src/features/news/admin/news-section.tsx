import { useQuery } from '@tanstack/react-query';
import { Plus, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { SampleRetirementNotice } from '#web/components/layout/sample-retirement-notice.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { errorText } from '#web/lib/error-text.ts';
import { type NewsSource, newsSourcesQueryOptions } from './api/get-news-sources.ts';
import { useRefreshNews } from './api/refresh-news.ts';
import { ArticlesPanel } from './articles-panel.tsx';
import { SourceDialog } from './source-dialog.tsx';
import { SourceRow } from './source-row.tsx';

/** /admin/news: sources (add, edit, test, enable, delete, refresh) and articles (hide). */
export function NewsSection() {
  const sources = useQuery(newsSourcesQueryOptions());
  const refreshAll = useRefreshNews();
  const [editing, setEditing] = useState<{ source: NewsSource | null; key: number } | null>(null);

  return (
    <div className="space-y-8">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <h2 className="font-bold text-2xl">News sources</h2>
        <div className="flex gap-2">
          <Button
            variant="outline"
            disabled={refreshAll.isPending}
            onClick={() =>
              refreshAll.mutate(null, {
                onSuccess: ({ sources: outcomes }) =>
                  toast({
                    title: 'Sources refreshed',
                    description: `${outcomes.reduce((sum, outcome) => sum + outcome.new_items, 0)} new articles; ${
                      outcomes.filter((outcome) => outcome.status === 'error').length
                    } sources failed`,
                  }),
                onError: (error) =>
                  toast({ variant: 'destructive', title: 'Error', description: errorText(error) }),
              })
            }
          >
            <RefreshCw aria-hidden="true" className={refreshAll.isPending ? 'animate-spin' : undefined} />
            {refreshAll.isPending ? 'Refreshing…' : 'Refresh all now'}
          </Button>
          <Button onClick={() => setEditing({ source: null, key: Date.now() })}>
            <Plus aria-hidden="true" />
            Add source
          </Button>
        </div>
      </div>
      <SampleRetirementNotice area="news" />
      {sources.isPending ? (
        <p className="text-muted-foreground text-sm">Loading sources…</p>
      ) : sources.isError ? (
        <p role="alert" className="text-destructive text-sm">
          {errorText(sources.error)}
        </p>
      ) : sources.data.length === 0 ? (
        <EmptyState icon={RefreshCw} title="No news sources" headingLevel={3}>
          Add a feed to start filling the news page.
        </EmptyState>
      ) : (
        <ul className="space-y-3">
          {sources.data.map((source) => (
            <SourceRow
              key={source.id}
              source={source}
              onEdit={() => setEditing({ source, key: Date.now() })}
            />
          ))}
        </ul>
      )}
      {editing ? (
        <SourceDialog
          key={editing.key}
          source={editing.source}
          open
          onOpenChange={(open) => {
            if (!open) setEditing(null);
          }}
        />
      ) : null}
      <ArticlesPanel />
    </div>
  );
}
