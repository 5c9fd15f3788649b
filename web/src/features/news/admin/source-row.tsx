import { Pencil, RefreshCw, Trash2 } from 'lucide-react';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmButton } from '#web/components/ui/confirm-button.tsx';
import { Switch } from '#web/components/ui/switch.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { errorText } from '#web/lib/error-text.ts';
import { fullDate, relativeTime } from '../news-feed.ts';
import { useDeleteNewsSource } from './api/delete-news-source.ts';
import type { NewsSource } from './api/get-news-sources.ts';
import { useRefreshNews } from './api/refresh-news.ts';
import { useSetNewsSourceEnabled } from './api/set-news-source-enabled.ts';

const failed = (error: unknown) =>
  toast({ variant: 'destructive', title: 'Error', description: errorText(error) });

function StatusBadge({ source }: { source: NewsSource }) {
  if (!source.last_status) return <Badge variant="outline">Not fetched yet</Badge>;
  if (source.last_status === 'error') return <Badge variant="destructive">Error</Badge>;
  if (source.last_status === 'not_modified') return <Badge variant="secondary">Not modified</Badge>;
  return <Badge variant="secondary">OK</Badge>;
}

/** A source's name, feed and last fetch. */
function SourceFacts({ source }: { source: NewsSource }) {
  return (
    <div className="min-w-0 space-y-1">
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="font-semibold">{source.name}</h3>
        <Badge variant="outline">{source.category}</Badge>
        <StatusBadge source={source} />
      </div>
      <p className="truncate text-muted-foreground text-sm">{source.feed_url}</p>
      <p className="text-muted-foreground text-sm">
        {source.item_count} articles
        {source.last_fetched_at ? (
          <>
            {' · last fetched '}
            <time dateTime={source.last_fetched_at} title={fullDate(source.last_fetched_at)}>
              {relativeTime(source.last_fetched_at)}
            </time>
            {source.last_status === 'ok' ? ` (${source.last_new_count} new)` : null}
          </>
        ) : null}
      </p>
      {source.last_error ? <p className="text-destructive text-sm">{source.last_error}</p> : null}
      {source.origin ? <p className="text-muted-foreground text-xs">Origin: {source.origin}</p> : null}
    </div>
  );
}

/** One source of /admin/news: its facts, the enabled switch, Refresh, Edit and Delete (asked first). */
export function SourceRow({ source, onEdit }: { source: NewsSource; onEdit: () => void }) {
  const refresh = useRefreshNews();
  const setEnabled = useSetNewsSourceEnabled();
  const remove = useDeleteNewsSource();

  const refreshNow = () =>
    refresh.mutate(source.id, {
      onSuccess: ({ sources }) => {
        const outcome = sources[0];
        toast(
          outcome?.status === 'error'
            ? {
                variant: 'destructive',
                title: `${source.name}: fetch failed`,
                description: outcome.error ?? '',
              }
            : { title: `${source.name} refreshed`, description: `${outcome?.new_items ?? 0} new articles` },
        );
      },
      onError: failed,
    });

  return (
    <li
      className="grid gap-3 rounded-lg border bg-card p-4 md:grid-cols-[1fr_auto]"
      data-testid="news-source"
    >
      <SourceFacts source={source} />
      <div className="flex flex-wrap items-center gap-2 md:justify-end">
        <div className="flex items-center gap-2 text-sm">
          <Switch
            checked={source.enabled}
            aria-label={`${source.name} enabled`}
            onCheckedChange={(enabled) => setEnabled.mutate({ id: source.id, enabled }, { onError: failed })}
          />
          {source.enabled ? 'Enabled' : 'Disabled'}
        </div>
        <Button size="sm" variant="outline" onClick={refreshNow} disabled={refresh.isPending}>
          <RefreshCw aria-hidden="true" className={refresh.isPending ? 'animate-spin' : undefined} />
          Refresh<span className="sr-only"> {source.name}</span>
        </Button>
        <Button size="sm" variant="outline" onClick={onEdit}>
          <Pencil aria-hidden="true" />
          Edit<span className="sr-only"> {source.name}</span>
        </Button>
        <ConfirmButton
          size="sm"
          variant="outline"
          title={`Delete ${source.name}?`}
          description={`The source and its ${source.item_count} articles are removed from the feed. Members keep what they saved.`}
          confirmLabel="Delete source"
          destructive
          onConfirm={() =>
            // mutateAsync: the row unmounts once the list reloads without it, and a callback given to
            // mutate() would then never run.
            remove
              .mutateAsync(source.id)
              .then(() => toast({ title: 'Source deleted', description: source.name }), failed)
          }
        >
          <Trash2 aria-hidden="true" />
          Delete<span className="sr-only"> {source.name}</span>
        </ConfirmButton>
      </div>
    </li>
  );
}
