import { useQuery } from '@tanstack/react-query';
import { Eye, EyeOff, Pencil, Plus, RefreshCw, Trash2 } from 'lucide-react';
import { AlertDialog as AlertDialogPrimitive } from 'radix-ui';
import { useState } from 'react';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { SampleRetirementNotice } from '#web/components/layout/sample-retirement-notice.tsx';
import {
  AlertDialog,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogTitle,
} from '#web/components/ui/alert-dialog.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '#web/components/ui/dialog.tsx';
import { InputField } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Switch } from '#web/components/ui/switch.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { errorText } from '#web/lib/error-text.ts';
import { useForm } from '#web/lib/use-form.ts';
import {
  adminArticlesQueryOptions,
  type FeedTestResult,
  type NewsSource,
  newsSourcesQueryOptions,
  testNewsFeed,
  useDeleteNewsSource,
  useRefreshNews,
  useSaveNewsSource,
  useSetArticleHidden,
  useSetNewsSourceEnabled,
} from '../api/admin-news.ts';
import { fullDate, relativeTime } from '../news-feed.ts';
import { SOURCE_MAX_LENGTH, validateSource } from './source-form.ts';

function StatusBadge({ source }: { source: NewsSource }) {
  if (!source.last_status) return <Badge variant="outline">Not fetched yet</Badge>;
  if (source.last_status === 'error') return <Badge variant="destructive">Error</Badge>;
  if (source.last_status === 'not_modified') return <Badge variant="secondary">Not modified</Badge>;
  return <Badge variant="secondary">OK</Badge>;
}

function FeedPreview({ result }: { result: FeedTestResult }) {
  if (!result.ok) {
    return (
      <p role="alert" className="rounded-md border border-destructive/50 p-3 text-destructive text-sm">
        The feed could not be read: {result.error}
      </p>
    );
  }
  return (
    <section aria-label="Feed preview" className="rounded-md border p-3 text-sm">
      <p className="font-medium">
        {result.title ?? 'Untitled feed'} — {result.format.toUpperCase()}, {result.item_count} item
        {result.item_count === 1 ? '' : 's'}
      </p>
      <ul className="mt-2 max-h-48 list-disc space-y-1 overflow-y-auto pl-5">
        {result.items.slice(0, 10).map((item) => (
          <li key={item.url}>{item.title}</li>
        ))}
      </ul>
    </section>
  );
}

function SourceDialog({
  source,
  open,
  onOpenChange,
}: {
  source: NewsSource | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const form = useForm(
    { name: source?.name ?? '', feedUrl: source?.feed_url ?? '', category: source?.category ?? '' },
    { maxLength: SOURCE_MAX_LENGTH },
  );
  const save = useSaveNewsSource();
  const [testing, setTesting] = useState(false);
  const [preview, setPreview] = useState<FeedTestResult | null>(null);

  const runTest = async () => {
    const problems = validateSource(form.values);
    if (problems.feedUrl) {
      form.showErrors({ feedUrl: problems.feedUrl });
      return;
    }
    setTesting(true);
    try {
      setPreview(await testNewsFeed(form.values.feedUrl.trim()));
    } catch (error) {
      setPreview({ ok: false, error: errorText(error) });
    } finally {
      setTesting(false);
    }
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-lg">
        <DialogTitle>{source ? `Edit ${source.name}` : 'Add a news source'}</DialogTitle>
        <DialogDescription>
          An RSS, Atom, RDF or JSON feed. Test it to see what it would bring before saving.
        </DialogDescription>
        <form
          ref={form.ref}
          noValidate
          className="grid gap-4"
          onSubmit={form.handleSubmit(async (values) => {
            if (form.showErrors(validateSource(values))) return;
            try {
              await save.mutateAsync({
                id: source?.id ?? null,
                input: {
                  name: values.name.trim(),
                  feedUrl: values.feedUrl.trim(),
                  category: values.category.trim(),
                },
              });
              toast({ title: source ? 'Source updated' : 'Source added', description: values.name.trim() });
              onOpenChange(false);
            } catch (error) {
              // A rule of the database also shows under its field (decision 180).
              const note = form.showRefusal(error);
              toast({ variant: 'destructive', title: 'Error', description: note ?? errorText(error) });
            }
          })}
        >
          <InputField label="Name" required {...form.field('name')} />
          <InputField label="Feed URL" required type="url" inputMode="url" {...form.field('feedUrl')} />
          <InputField
            label="Category"
            required
            hint="Shown as the article's badge and chip"
            {...form.field('category')}
          />
          {preview ? <FeedPreview result={preview} /> : null}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button type="button" variant="outline" onClick={() => void runTest()} disabled={testing}>
              {testing ? 'Testing…' : 'Test feed'}
            </Button>
            <Button type="submit" disabled={form.busy}>
              {form.busy ? 'Saving…' : 'Save source'}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}

function SourceRow({ source, onEdit }: { source: NewsSource; onEdit: () => void }) {
  const refresh = useRefreshNews();
  const setEnabled = useSetNewsSourceEnabled();
  const remove = useDeleteNewsSource();
  const [confirm, setConfirm] = useState(false);

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
      onError: (error) => toast({ variant: 'destructive', title: 'Error', description: errorText(error) }),
    });

  return (
    <li
      className="grid gap-3 rounded-lg border bg-card p-4 md:grid-cols-[1fr_auto]"
      data-testid="news-source"
    >
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
      <div className="flex flex-wrap items-center gap-2 md:justify-end">
        <div className="flex items-center gap-2 text-sm">
          <Switch
            checked={source.enabled}
            aria-label={`${source.name} enabled`}
            onCheckedChange={(enabled) =>
              setEnabled.mutate(
                { id: source.id, enabled },
                {
                  onError: (error) =>
                    toast({ variant: 'destructive', title: 'Error', description: errorText(error) }),
                },
              )
            }
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
        <AlertDialog open={confirm} onOpenChange={(open) => !remove.isPending && setConfirm(open)}>
          <AlertDialogPrimitive.Trigger asChild>
            <Button size="sm" variant="outline">
              <Trash2 aria-hidden="true" />
              Delete<span className="sr-only"> {source.name}</span>
            </Button>
          </AlertDialogPrimitive.Trigger>
          <AlertDialogContent>
            <AlertDialogTitle>Delete {source.name}?</AlertDialogTitle>
            <AlertDialogDescription>
              The source and its {source.item_count} articles are removed from the feed. Members keep what
              they saved.
            </AlertDialogDescription>
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <AlertDialogPrimitive.Cancel asChild>
                <Button variant="outline">Cancel</Button>
              </AlertDialogPrimitive.Cancel>
              <Button
                variant="destructive"
                disabled={remove.isPending}
                onClick={() =>
                  // mutateAsync: the row unmounts once the list reloads without it, and a callback given to
                  // mutate() would then never run.
                  remove.mutateAsync(source.id).then(
                    () => toast({ title: 'Source deleted', description: source.name }),
                    (error: unknown) =>
                      toast({ variant: 'destructive', title: 'Error', description: errorText(error) }),
                  )
                }
              >
                Delete source
              </Button>
            </div>
          </AlertDialogContent>
        </AlertDialog>
      </div>
    </li>
  );
}

function ArticlesPanel() {
  const [q, setQ] = useState('');
  const [text, setText] = useState('');
  const articles = useQuery(adminArticlesQueryOptions(q));
  const setHidden = useSetArticleHidden();
  return (
    <section aria-labelledby="news-admin-articles" className="space-y-4">
      <h3 id="news-admin-articles" className="font-semibold text-lg">
        Articles
      </h3>
      <form
        className="flex max-w-md gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          setQ(text);
        }}
      >
        <Input
          type="search"
          aria-label="Find articles by title"
          placeholder="Find articles by title"
          value={text}
          maxLength={200}
          onChange={(event) => setText(event.target.value)}
        />
        <Button type="submit" variant="outline">
          Find
        </Button>
      </form>
      {articles.isPending ? (
        <p className="text-muted-foreground text-sm">Loading articles…</p>
      ) : articles.isError ? (
        <p role="alert" className="text-destructive text-sm">
          {errorText(articles.error)}
        </p>
      ) : articles.data.length === 0 ? (
        <p className="text-muted-foreground text-sm">No articles.</p>
      ) : (
        <ul className="divide-y rounded-lg border">
          {articles.data.map((article) => (
            <li
              key={article.id}
              className="flex items-center justify-between gap-3 p-3 text-sm"
              data-testid="news-admin-article"
            >
              <div className="min-w-0">
                <a
                  href={article.url}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="font-medium hover:underline"
                >
                  {article.title}
                </a>
                <p className="text-muted-foreground">
                  {article.source_name} · {relativeTime(article.published_at)}
                  {article.hidden ? ' · hidden' : ''}
                  {article.is_sample ? ' · sample' : ''}
                </p>
              </div>
              <Button
                size="sm"
                variant="outline"
                disabled={setHidden.isPending}
                onClick={() =>
                  setHidden.mutate(
                    { id: article.id, hidden: !article.hidden },
                    {
                      onSuccess: () =>
                        toast({
                          title: article.hidden ? 'Article shown' : 'Article hidden',
                          description: article.title,
                        }),
                      onError: (error) =>
                        toast({ variant: 'destructive', title: 'Error', description: errorText(error) }),
                    },
                  )
                }
              >
                {article.hidden ? <Eye aria-hidden="true" /> : <EyeOff aria-hidden="true" />}
                {article.hidden ? 'Show' : 'Hide'}
                <span className="sr-only"> {article.title}</span>
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

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
