import { ExternalLink, Heart, Megaphone, Newspaper } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Badge } from '#web/components/ui/badge.tsx';
import { cn } from '#web/lib/utils.ts';
import { fullDate, type NewsEntry, postPath, relativeTime } from '../news-feed.ts';
import { Highlighted } from './highlighted.tsx';

interface NewsCardProps {
  entry: NewsEntry;
  saved: boolean;
  busy: boolean;
  onToggleSave: (entry: NewsEntry, saved: boolean) => void;
}

function CardImage({ src, post }: { src: string | null; post: boolean }) {
  const [failed, setFailed] = useState(false);
  const Icon = post ? Megaphone : Newspaper;
  if (!src || failed) {
    return (
      <div
        aria-hidden="true"
        className="flex aspect-[16/9] w-full items-center justify-center bg-secondary text-muted-foreground"
      >
        <Icon className="size-10" />
      </div>
    );
  }
  return (
    <img
      src={src}
      alt=""
      loading="lazy"
      decoding="async"
      referrerPolicy="no-referrer"
      onError={() => setFailed(true)}
      className="aspect-[16/9] w-full bg-secondary object-cover"
    />
  );
}

/** One article (or team post) of the feed (product §news). */
export function NewsCard({ entry, saved, busy, onToggleSave }: NewsCardProps) {
  const post = entry.kind === 'post';
  const titleId = `news-${entry.id}-title`;
  return (
    <article
      aria-labelledby={titleId}
      className="flex flex-col overflow-hidden rounded-xl border bg-card text-card-foreground shadow-sm"
      data-testid="news-card"
    >
      <CardImage src={entry.image_url} post={post} />
      <div className="flex flex-1 flex-col gap-3 p-4">
        <div className="flex flex-wrap items-center gap-2 text-xs">
          {post ? <Badge>From the team</Badge> : <Badge variant="secondary">{entry.category}</Badge>}
          {entry.is_sample ? (
            <Badge
              variant="outline"
              className="border-amber-500 text-amber-700 dark:text-amber-300"
              title="Sample content: shown until real news sources deliver articles. Not real news."
            >
              Sample
              <span className="sr-only">
                {' '}
                — shown until real news sources deliver articles; not real news
              </span>
            </Badge>
          ) : null}
        </div>
        <h2 id={titleId} className="font-semibold text-lg leading-snug">
          {entry.url ? (
            <a
              href={entry.url}
              target="_blank"
              rel="noopener noreferrer"
              className="hover:underline focus-visible:underline"
            >
              <Highlighted text={entry.title_highlight} />
              <ExternalLink
                aria-hidden="true"
                className="ml-1 inline size-3.5 align-baseline text-muted-foreground"
              />
              <span className="sr-only"> (opens in a new tab)</span>
            </a>
          ) : post ? (
            // A team post has a page of its own with the whole post (issue 34 item 4).
            <Link to={postPath(entry.id)} className="hover:underline focus-visible:underline">
              <Highlighted text={entry.title_highlight} />
            </Link>
          ) : (
            <Highlighted text={entry.title_highlight} />
          )}
        </h2>
        {entry.summary_highlight ? (
          <p className="line-clamp-3 text-muted-foreground text-sm">
            <Highlighted text={entry.summary_highlight} />
          </p>
        ) : null}
        {entry.also_reported_by.length > 0 ? (
          <p className="text-muted-foreground text-xs">
            Also reported by{' '}
            {entry.also_reported_by.map((other, index) => (
              <span key={other.url}>
                {index > 0 ? ', ' : null}
                <a href={other.url} target="_blank" rel="noopener noreferrer" className="underline">
                  {other.source_name}
                </a>
              </span>
            ))}
          </p>
        ) : null}
        <div className="mt-auto flex items-center justify-between gap-2 pt-2 text-muted-foreground text-sm">
          <p className="min-w-0 truncate">
            <span className="font-medium text-foreground">{entry.source_name}</span>
            <span aria-hidden="true"> · </span>
            <time dateTime={entry.published_at} title={fullDate(entry.published_at)}>
              {relativeTime(entry.published_at)}
            </time>
          </p>
          {entry.is_sample ? (
            // A sample cannot be saved (decision 175): it is deleted when the first real article arrives.
            <span className="shrink-0 text-xs">Samples cannot be saved</span>
          ) : entry.url ? (
            <button
              type="button"
              aria-pressed={saved}
              aria-label={saved ? `Remove "${entry.title}" from saved articles` : `Save "${entry.title}"`}
              disabled={busy}
              onClick={() => onToggleSave(entry, saved)}
              className={cn(
                'inline-flex size-9 shrink-0 items-center justify-center rounded-full transition-colors hover:bg-secondary focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-50',
                saved ? 'text-red-600' : 'text-muted-foreground',
              )}
            >
              <Heart aria-hidden="true" className={cn('size-5', saved && 'fill-current')} />
            </button>
          ) : null}
        </div>
      </div>
    </article>
  );
}

export function NewsCardSkeleton() {
  return (
    <div aria-hidden="true" className="overflow-hidden rounded-xl border bg-card">
      <div className="aspect-[16/9] w-full animate-pulse bg-secondary" />
      <div className="space-y-3 p-4">
        <div className="h-4 w-20 animate-pulse rounded bg-secondary" />
        <div className="h-5 w-full animate-pulse rounded bg-secondary" />
        <div className="h-5 w-2/3 animate-pulse rounded bg-secondary" />
        <div className="h-4 w-full animate-pulse rounded bg-secondary" />
      </div>
    </div>
  );
}
